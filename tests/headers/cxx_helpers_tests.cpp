// The C++ helpers of rocprofiler-sdk (rocprofiler-sdk/cxx/): each header compiles on its own in
// C++17 (this file is built as C++17, the oldest standard AMD's helpers support), and each helper
// answers as rocprofiler-sdk documents: name tables agree with the C queries, handle operators
// and hashes compare and hash the handle word, version triplets split, join/tokenize format and
// parse, perfetto categories name each tracing kind's activity, code-object segments find the
// range holding an address.
#include <rocprofiler-sdk/cxx/hash.hpp>
#include <rocprofiler-sdk/cxx/name_info.hpp>
#include <rocprofiler-sdk/cxx/operators.hpp>
#include <rocprofiler-sdk/cxx/perfetto.hpp>
#include <rocprofiler-sdk/cxx/utility.hpp>
#include <rocprofiler-sdk/cxx/version.hpp>

#include <rocprofiler-sdk/cxx/codeobj/segment.hpp>
#include <rocprofiler-sdk/cxx/details/delimit.hpp>
#include <rocprofiler-sdk/cxx/details/join.hpp>
#include <rocprofiler-sdk/cxx/details/mpl.hpp>
#include <rocprofiler-sdk/cxx/details/tokenize.hpp>

#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

static_assert(__cplusplus == 201703L, "the helpers are tested as C++17");

namespace
{
namespace sdk = rocprofiler::sdk;

TEST(CxxNameInfo, CallbackNamesAgreeWithTheCQueries)
{
    const auto names = sdk::get_callback_tracing_names();
    ASSERT_GT(names.size(), static_cast<size_t>(ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH));

    const char* c_name = nullptr;
    ASSERT_EQ(rocprofiler_query_callback_tracing_kind_name(
                  ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH, &c_name, nullptr),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(names.at(ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH), std::string_view{c_name});
    EXPECT_EQ(names[ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH](), std::string_view{c_name});
    EXPECT_EQ(names[ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH].value,
              ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH);

    // Every operation of the kind, by both look-ups and by items().
    const auto& dispatch = names[ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH];
    ASSERT_FALSE(dispatch.operations.empty());
    size_t named = 0;
    for(auto [op, name] : dispatch.items())
    {
        if(name->empty()) continue; // an operation the SDK does not list (NONE)
        ++named;
        const char* op_name = nullptr;
        ASSERT_EQ(rocprofiler_query_callback_tracing_kind_operation_name(
                      ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH, op, &op_name, nullptr),
                  ROCPROFILER_STATUS_SUCCESS);
        EXPECT_EQ(*name, std::string_view{op_name});
        EXPECT_EQ(names.at(ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH, op), *name);
        EXPECT_EQ(dispatch(op), *name);
        EXPECT_EQ(dispatch[op], *name);
    }
    size_t listed_ops = 0;
    rocprofiler_iterate_callback_tracing_kind_operations(
        ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
        [](rocprofiler_callback_tracing_kind_t, rocprofiler_tracing_operation_t, void* data) -> int
        {
            ++*static_cast<size_t*>(data);
            return 0;
        },
        &listed_ops);
    EXPECT_EQ(named, listed_ops);

    // Every listed kind is in the table under its own value.
    size_t listed = 0;
    for(const auto* kind : names.items())
        if(!kind->name.empty()) ++listed;
    size_t kinds = 0;
    rocprofiler_iterate_callback_tracing_kinds(
        [](rocprofiler_callback_tracing_kind_t, void* data) -> int
        {
            ++*static_cast<size_t*>(data);
            return 0;
        },
        &kinds);
    EXPECT_EQ(listed, kinds);

    EXPECT_THROW((void)names.at(ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH, 100000),
                 std::out_of_range);
}

TEST(CxxNameInfo, BufferNamesInEveryStringType)
{
    const auto views   = sdk::get_buffer_tracing_names();
    const auto strings = sdk::get_buffer_tracing_names<std::string>();
    const auto cstrs   = sdk::get_buffer_tracing_names<const char*>();
    ASSERT_EQ(views.size(), strings.size());
    ASSERT_EQ(views.size(), cstrs.size());

    const auto  kind   = ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH;
    const char* c_name = nullptr;
    ASSERT_EQ(rocprofiler_query_buffer_tracing_kind_name(kind, &c_name, nullptr),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(views.at(kind), std::string_view{c_name});
    EXPECT_EQ(strings.at(kind), std::string{c_name});
    EXPECT_STREQ(cstrs.at(kind), c_name);
    ASSERT_FALSE(views[kind].operations.empty());
    EXPECT_EQ(strings.at(kind, 0), std::string{views.at(kind, 0)});

    // A kind of a runtime absent here is listed by name, with its operations (if the SDK lists
    // any).
    size_t with_name = 0;
    for(const auto& entry : views)
        if(!entry.name.empty()) ++with_name;
    EXPECT_GE(with_name, 2u);
}

TEST(CxxNameInfo, EmplaceGrowsTheTable)
{
    sdk::callback_name_info_t<std::string> table{};
    table.emplace(ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT, "CODE_OBJECT");
    table.emplace(ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT, 2, "two");
    EXPECT_EQ(table.size(), static_cast<size_t>(ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT) + 1);
    EXPECT_EQ(table.at(ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT), "CODE_OBJECT");
    EXPECT_EQ(table.at(ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT, 2), "two");
    EXPECT_EQ(table.at(ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT, 0), "");
    EXPECT_EQ(table[ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT].items().size(), 3u);
}

TEST(CxxOperators, HandlesCompareByTheirWord)
{
    const rocprofiler_context_id_t a{1}, b{2};
    EXPECT_TRUE(a == a);
    EXPECT_TRUE(a != b);
    EXPECT_TRUE(a < b);
    EXPECT_TRUE(b > a);
    EXPECT_FALSE(a > a);
    EXPECT_TRUE(a <= a);
    EXPECT_TRUE(a >= a);
    EXPECT_FALSE(a >= b);

    const hsa_agent_t h1{7}, h2{7};
    EXPECT_TRUE(h1 == h2);
    const hsa_amd_memory_pool_t p1{1}, p2{3};
    EXPECT_TRUE(p1 < p2);

    std::set<rocprofiler_agent_id_t> agents{{3}, {1}, {2}, {1}};
    ASSERT_EQ(agents.size(), 3u);
    EXPECT_EQ(agents.begin()->handle, 1u);

    rocprofiler_agent_v0_t x{}, y{};
    x.id = {1};
    y.id = {2};
    EXPECT_TRUE(x < y);
    EXPECT_TRUE(x != y);
    y.id = {1};
    EXPECT_TRUE(x == y);
}

TEST(CxxOperators, Dim3OrdersBySizeThenComponents)
{
    const rocprofiler_dim3_t a{1, 1, 8}, b{2, 2, 1}, c{4, 1, 1}, d{4, 1, 1};
    EXPECT_TRUE(b < a); // 4 < 8 work-items
    EXPECT_TRUE(b < c); // same size: (2,2,1) < (4,1,1)
    EXPECT_TRUE(c == d);
    EXPECT_FALSE(c < d);
    EXPECT_TRUE(c <= d);
    EXPECT_FALSE(c > d);
}

TEST(CxxHash, HandlesHashAsTheirWord)
{
    EXPECT_EQ(std::hash<rocprofiler_buffer_id_t>{}(rocprofiler_buffer_id_t{42}), 42u);
    EXPECT_EQ(std::hash<hsa_signal_t>{}(hsa_signal_t{5}), 5u);
    std::unordered_map<rocprofiler_counter_id_t, int> counters{};
    counters[{10}] = 1;
    counters[{11}] = 2;
    counters[{10}] += 5;
    EXPECT_EQ(counters.size(), 2u);
    EXPECT_EQ((counters[{10}]), 6);
    std::unordered_set<rocprofiler_queue_id_t> queues{{1}, {1}, {2}};
    EXPECT_EQ(queues.size(), 2u);
}

TEST(CxxVersion, TripletFromOneNumber)
{
    constexpr auto v = sdk::version::compute_version_triplet(ROCPROFILER_VERSION);
    static_assert(v.major == ROCPROFILER_VERSION_MAJOR && v.minor == ROCPROFILER_VERSION_MINOR &&
                  v.patch == ROCPROFILER_VERSION_PATCH);
    constexpr auto w = sdk::version::compute_version_triplet<1000>(3002001);
    static_assert(w.major == 3 && w.minor == 2 && w.patch == 1);
    const auto u = sdk::version::compute_version_triplet(60403);
    EXPECT_EQ(u.major, 6u);
    EXPECT_EQ(u.minor, 4u);
    EXPECT_EQ(u.patch, 3u);
}

TEST(CxxUtility, AsHex)
{
    EXPECT_EQ(sdk::utility::as_hex(255), "0xff");
    EXPECT_EQ(sdk::utility::as_hex(255, 4), "0x00ff");
    EXPECT_EQ(sdk::utility::as_hex(uint64_t{0x1234}, 16), "0x0000000000001234");
}

TEST(CxxJoin, DelimitersContainersAndQuotes)
{
    using sdk::join::join;
    EXPECT_EQ(join(", ", "a", 1, 2.5), "a, 1, 2.5");
    EXPECT_EQ(join('-', "x", std::string{}, "y"), "x-y"); // empty arguments skipped
    EXPECT_EQ(join(":", true), "true");
    EXPECT_EQ(join(", ", std::vector<int>{1, 2, 3}), "[1, 2, 3]");
    EXPECT_EQ(join(", ", std::map<std::string, int>{{"a", 1}, {"b", 2}}), "[{a, 1}, {b, 2}]");
    EXPECT_EQ(join(std::array<std::string_view, 3>{"|", "<", ">"}, "a", "b"), "<a|b>");
    EXPECT_EQ(join<sdk::join::QuoteStrings>(", ", "a", 1), "\"a\", 1");
    EXPECT_EQ(join(", ", std::string{}), "");
    EXPECT_EQ(sdk::join::quoted("name"), "\"name\"");
}

TEST(CxxParse, TokenizeStripTransform)
{
    namespace parse = sdk::parse;
    EXPECT_EQ(parse::tokenize("a,b;;c d"), (std::vector<std::string>{"a", "b", "c", "d"}));
    EXPECT_EQ(parse::tokenize(" SQ_WAVES  GRBM_COUNT ", " "),
              (std::vector<std::string>{"SQ_WAVES", "GRBM_COUNT"}));
    const auto sets = parse::tokenize<std::set<std::string>>("b,a,b", ",");
    EXPECT_EQ(sets, (std::set<std::string>{"a", "b"}));
    const auto pieces = parse::tokenize("a::b->c", std::vector<std::string_view>{"::", "->"});
    EXPECT_EQ(pieces, (std::vector<std::string>{"a", "b", "c"}));
    EXPECT_EQ(parse::from_string<int>("42"), 42);
    EXPECT_EQ(parse::from_string<double>(std::string{"0.5"}), 0.5);
    EXPECT_EQ(parse::strip("  x y \n", " \n"), "x y");
    EXPECT_EQ(parse::str_transform(
                  "a [b] c [d]", "[", "]", [](const std::string& s) { return s.substr(1); }),
              "a b] c d]");
}

TEST(CxxMpl, Traits)
{
    namespace mpl = sdk::mpl;
    static_assert(mpl::is_string_type<const std::string&>::value);
    static_assert(!mpl::is_string_type<int>::value);
    static_assert(mpl::string_support<std::string_view>::value);
    static_assert(!mpl::string_support<int>::value);
    static_assert(mpl::has_value_type<std::vector<int>>(0));
    static_assert(mpl::has_key_type<std::map<int, int>>(0));
    static_assert(!mpl::has_mapped_type<std::set<int>>(0));
    static_assert(mpl::is_iterable<std::vector<int>>::value);
    static_assert(!mpl::is_iterable<int>::value);
    static_assert(mpl::can_stringify<int>::value);
    EXPECT_TRUE(mpl::is_empty(std::string{}));
    EXPECT_TRUE(mpl::is_empty(""));
    EXPECT_FALSE(mpl::is_empty(3));
    std::vector<int> v{};
    EXPECT_TRUE(mpl::reserve(v, 4));
    mpl::emplace(v, 1);
    std::set<int> s{};
    EXPECT_FALSE(mpl::reserve(s, 4));
    mpl::emplace(s, 1);
    EXPECT_EQ(v.size() + s.size(), 2u);
}

// perfetto.hpp: every category has a name and a description; each kind maps to the category of
// its activity, kinds of no activity to "none", and a value that is no kind to NULL. The
// categories need no Perfetto SDK, which this build does not have.
TEST(CxxPerfetto, CategoriesAndTheCategoryOfEachKind)
{
    static_assert(ROCPROFILER_SDK_PERFETTO_SDK == 0, "this test is built without Perfetto");
    EXPECT_STREQ(sdk::perfetto_category<sdk::category::kernel_dispatch>::name, "kernel_dispatch");
    EXPECT_STREQ(sdk::perfetto_category<sdk::category::kernel_dispatch>::description,
                 "GPU kernel dispatch");
    EXPECT_STREQ(sdk::perfetto_category<sdk::category::none>::name, "none");

    EXPECT_STREQ(sdk::get_perfetto_category(ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH),
                 "kernel_dispatch");
    EXPECT_STREQ(sdk::get_perfetto_category(ROCPROFILER_BUFFER_TRACING_MEMORY_COPY), "memory_copy");
    EXPECT_STREQ(sdk::get_perfetto_category(ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API),
                 "marker_api");
    EXPECT_STREQ(sdk::get_perfetto_category(ROCPROFILER_BUFFER_TRACING_HSA_AMD_EXT_API), "hsa_api");
    EXPECT_STREQ(sdk::get_perfetto_category(ROCPROFILER_BUFFER_TRACING_KFD_QUEUE), "kfd_events");
    EXPECT_STREQ(sdk::get_perfetto_category(ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API),
                 "cuda_api");
    EXPECT_STREQ(sdk::get_perfetto_category(ROCPROFILER_BUFFER_TRACING_NONE), "none");
    EXPECT_EQ(sdk::get_perfetto_category(ROCPROFILER_BUFFER_TRACING_LAST), nullptr);

    EXPECT_STREQ(sdk::get_perfetto_category(ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH),
                 "kernel_dispatch");
    EXPECT_STREQ(sdk::get_perfetto_category(ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY),
                 "kernel_dispatch");
    EXPECT_STREQ(sdk::get_perfetto_category(ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT), "none");
    EXPECT_STREQ(sdk::get_perfetto_category(ROCPROFILER_CALLBACK_TRACING_OMPT), "openmp");
    EXPECT_EQ(sdk::get_perfetto_category(ROCPROFILER_CALLBACK_TRACING_LAST), nullptr);

    constexpr const char* at_compile_time =
        sdk::rocprofiler_tracing_perfetto_category<rocprofiler_buffer_tracing_kind_t,
                                                   ROCPROFILER_BUFFER_TRACING_SCRATCH_MEMORY>::name;
    EXPECT_STREQ(at_compile_time, "scratch_memory");

    // Every kind the SDK lists has a category.
    const auto names = sdk::get_buffer_tracing_names();
    for(const auto* item : names.items())
    {
        if(item == nullptr || item->name.empty()) continue;
        EXPECT_NE(sdk::get_perfetto_category(item->value), nullptr) << item->name;
    }
}

// codeobj/segment.hpp: ranges overlap-compare, so a set of disjoint ranges finds the one holding
// an address; a miss throws; removal by range or by address.
TEST(CxxCodeobjSegment, FindsTheRangeHoldingAnAddress)
{
    using sdk::codeobj::segment::address_range_t;
    auto table = sdk::codeobj::segment::CodeobjTableTranslator{};
    table.insert(address_range_t{0x1000, 0x100, 1});
    table.insert(address_range_t{0x2000, 0x10, 2});
    EXPECT_FALSE(table.insert(address_range_t{0x1080, 0x100, 3}).second) << "overlaps range 1";

    EXPECT_EQ(table.find_codeobj_in_range(0x1000).id, 1u);
    EXPECT_EQ(table.find_codeobj_in_range(0x10ff).id, 1u);
    EXPECT_EQ(table.find_codeobj_in_range(0x200f).id, 2u);
    EXPECT_THROW(table.find_codeobj_in_range(0x1100), std::exception);
    EXPECT_THROW(table.find_codeobj_in_range(0x0fff), std::exception);

    EXPECT_TRUE(address_range_t({0x1000, 0x100, 1}).inrange(0x1050));
    EXPECT_FALSE(address_range_t({0x1000, 0x100, 1}).inrange(0x1100));

    EXPECT_EQ(table.find_codeobj_in_range(0x1010).id, 1u); // cached now
    EXPECT_TRUE(table.remove(0x1020));                     // drops the cache too
    EXPECT_THROW(table.find_codeobj_in_range(0x1010), std::exception);
    EXPECT_FALSE(table.remove(0x1020));
    EXPECT_TRUE(table.remove(address_range_t{0x2000, 1, 0}));
    EXPECT_TRUE(table.empty());
}
} // namespace
