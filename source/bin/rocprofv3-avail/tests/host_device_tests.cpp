// rocprofv3-avail run against the host device, its answers compared with what the SDK itself
// reports through the public API in this process: the counter names, descriptions, dimensions and
// PC sampling configurations, and the pass counts of counter configurations. Nothing here is a
// hard-coded count: where the host device's limit matters, the test finds it by asking the SDK.
#include "config/amd_names.hpp"
#include "config/metric_sets.hpp"

#include <rocprofiler-sdk/agent.h>
#include <rocprofiler-sdk/counter_config.h>
#include <rocprofiler-sdk/counters.h>
#include <rocprofiler-sdk/experimental/counter_passes.h>
#include <rocprofiler-sdk/pc_sampling.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace
{
namespace fs          = std::filesystem;
namespace amd_names   = rocprofiler::tool::amd_names;
namespace metric_sets = rocprofiler::tool::metric_sets;

struct run_result
{
    int         rc  = -1;
    std::string out = {};
    std::string err = {};
};

std::string
read_all(const fs::path& path)
{
    auto in = std::ifstream{path};
    return {std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
}

// rocprofv3-avail with @p args, its stdout and stderr through files (no pipe to fill).
run_result
avail(const std::vector<std::string>& args)
{
    const auto dir =
        fs::temp_directory_path() / ("rocprofv3-avail-test-" + std::to_string(getpid()));
    fs::create_directories(dir);
    const auto out_file = dir / "stdout";
    const auto err_file = dir / "stderr";
    // Everything the child needs is prepared before fork(): between fork and exec it calls only
    // async-signal-safe functions (the SDK in this process may run threads).
    auto argv = std::vector<char*>{const_cast<char*>(ROCPROFV3_AVAIL_BIN)};
    for(const auto& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const auto pid = fork();
    if(pid == 0)
    {
        auto out = open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        auto err = open(err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if(out < 0 || err < 0) _exit(125);
        dup2(out, STDOUT_FILENO);
        dup2(err, STDERR_FILENO);
        execv(ROCPROFV3_AVAIL_BIN, argv.data());
        _exit(126);
    }
    auto status = 0;
    waitpid(pid, &status, 0);
    auto result = run_result{};
    result.rc   = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    result.out  = read_all(out_file);
    result.err  = read_all(err_file);
    fs::remove_all(dir);
    return result;
}

bool
contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

// The SDK's answers.
struct sdk_counter
{
    rocprofiler_counter_id_t id          = {};
    std::string              name        = {};
    std::string              description = {};
    std::string              block       = {};
    std::string              expression  = {};
    bool                     derived     = false;
    std::string              dimension   = {};
    size_t                   instances   = 0;
};

struct host_agent
{
    rocprofiler_agent_id_t   id       = {};
    int                      index    = -1;
    std::string              name     = {};
    std::string              product  = {};
    std::vector<sdk_counter> counters = {};
};

host_agent
find_host()
{
    auto out = host_agent{};
    rocprofiler_query_available_agents(
        ROCPROFILER_AGENT_INFO_VERSION_0,
        [](rocprofiler_agent_version_t, const void** list, size_t n, void* data)
        {
            for(size_t i = 0; i < n; ++i)
            {
                const auto* a = static_cast<const rocprofiler_agent_v0_t*>(list[i]);
                if(a->type != ROCPROFILER_AGENT_TYPE_GPU || std::string{a->name} != "host")
                    continue;
                auto* h    = static_cast<host_agent*>(data);
                h->id      = a->id;
                h->index   = a->logical_node_type_id;
                h->name    = a->name;
                h->product = a->product_name;
            }
            return ROCPROFILER_STATUS_SUCCESS;
        },
        sizeof(rocprofiler_agent_v0_t),
        &out);
    if(out.index < 0) return out;
    auto ids = std::vector<rocprofiler_counter_id_t>{};
    rocprofiler_iterate_agent_supported_counters(
        out.id,
        [](rocprofiler_agent_id_t, rocprofiler_counter_id_t* list, size_t n, void* data)
        {
            auto* v = static_cast<std::vector<rocprofiler_counter_id_t>*>(data);
            v->insert(v->end(), list, list + n);
            return ROCPROFILER_STATUS_SUCCESS;
        },
        &ids);
    for(auto id : ids)
    {
        auto info = rocprofiler_counter_info_v1_t{};
        info.size = sizeof(info);
        if(rocprofiler_query_counter_info(id, ROCPROFILER_COUNTER_INFO_VERSION_1, &info) !=
           ROCPROFILER_STATUS_SUCCESS)
            continue;
        auto c        = sdk_counter{};
        c.id          = id;
        c.name        = info.name;
        c.description = info.description;
        c.block       = info.block;
        c.expression  = info.expression;
        c.derived     = info.is_derived != 0;
        if(info.dimensions_count > 0)
        {
            c.dimension = info.dimensions[0]->name;
            c.instances = info.dimensions[0]->instance_size;
        }
        out.counters.push_back(c);
    }
    return out;
}

const host_agent&
host()
{
    static const auto agent = find_host();
    return agent;
}

// The pass count of a configuration of @p names on the host agent (nullopt: refused, with the
// status in @p status).
std::optional<uint64_t>
passes(const std::vector<std::string>& names, rocprofiler_status_t* status = nullptr)
{
    auto ids = std::vector<rocprofiler_counter_id_t>{};
    for(const auto& n : names)
        for(const auto& c : host().counters)
            if(c.name == n) ids.push_back(c.id);
    EXPECT_EQ(ids.size(), names.size());
    auto cfg = rocprofiler_counter_config_id_t{};
    auto rc  = rocprofiler_create_counter_config(host().id, ids.data(), ids.size(), &cfg);
    if(status != nullptr) *status = rc;
    if(rc != ROCPROFILER_STATUS_SUCCESS) return std::nullopt;
    auto n = uint64_t{0};
    rocprofiler_query_counter_config_pass_count(cfg, &n);
    rocprofiler_destroy_counter_config(cfg);
    return n;
}

std::vector<std::string>
base_counters()
{
    auto out = std::vector<std::string>{};
    for(const auto& c : host().counters)
        if(!c.derived) out.push_back(c.name);
    return out;
}

std::string
device()
{
    return std::to_string(host().index);
}

std::vector<std::string>
words(const std::string& text)
{
    auto in  = std::istringstream{text};
    auto out = std::vector<std::string>{};
    for(std::string w; in >> w;)
        out.push_back(w);
    return out;
}

class avail_host : public ::testing::Test
{
protected:
    void SetUp() override
    {
        ASSERT_GE(host().index, 0) << "the SDK lists no host agent";
        ASSERT_FALSE(host().counters.empty()) << "the SDK lists no counter of the host agent";
    }
};
} // namespace

TEST_F(avail_host, list_names_every_counter_the_sdk_lists)
{
    auto r = avail({"list", "-d", device()});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "GPU                           :\t" + device() + "\n"));
    EXPECT_TRUE(contains(r.out, "Name                          :\thost\n"));
    const auto header = std::string{"PMC                           :\n\n"};
    const auto pmc    = r.out.find(header);
    ASSERT_NE(pmc, std::string::npos) << r.out;
    auto listed = words(r.out.substr(pmc + header.size()));
    auto sdk    = std::vector<std::string>{};
    for(const auto& c : host().counters)
        sdk.push_back(c.name);
    std::sort(listed.begin(), listed.end());
    std::sort(sdk.begin(), sdk.end());
    EXPECT_EQ(listed, sdk);
    // Without a flag, list lists the counters, as --pmc does.
    EXPECT_EQ(avail({"list", "--pmc", "-d", device()}).out, r.out);
}

TEST_F(avail_host, list_agent_shows_the_sdk_properties)
{
    auto r = avail({"-d", device(), "list", "--agent"});
    ASSERT_EQ(r.rc, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "GPU:" + device() + "\n"));
    EXPECT_TRUE(contains(r.out, "product_name                  :\t" + host().product + "\n"));
    EXPECT_TRUE(contains(r.out, "logical_node_type_id          :\t" + device() + "\n"));
    EXPECT_FALSE(contains(r.out, "PMC")) << "--agent alone lists no counters";
    // info without options: the properties and the counter names.
    auto info = avail({"info", "-d", device()});
    ASSERT_EQ(info.rc, 0) << info.err;
    EXPECT_TRUE(contains(info.out, "product_name                  :\t" + host().product));
    EXPECT_TRUE(contains(info.out, host().counters.front().name));
}

TEST_F(avail_host, info_pmc_describes_counters_as_the_sdk_does)
{
    auto r = avail({"info", "--pmc", "-d", device()});
    ASSERT_EQ(r.rc, 0) << r.err;
    size_t blocks = 0;
    for(auto at = r.out.find("counter_name        : "); at != std::string::npos;
        at      = r.out.find("counter_name        : ", at + 1))
        ++blocks;
    EXPECT_EQ(blocks, host().counters.size());
    for(const auto& c : host().counters)
    {
        auto block = "counter_name        : " + c.name +
                     "\ndescription         : " + c.description + "\n" +
                     (c.derived ? "expression          : " + c.expression
                                : "block               : " + c.block) +
                     "\n";
        EXPECT_TRUE(contains(r.out, block)) << block;
    }
    // One counter by name: its dimension and the passes the SDK reports for it alone.
    const auto& first = host().counters.front();
    auto        one   = avail({"info", "--pmc", first.name, "-d", device()});
    ASSERT_EQ(one.rc, 0) << one.err;
    EXPECT_TRUE(contains(one.out, "dimension_name      : " + first.dimension + "\n"));
    EXPECT_TRUE(contains(one.out, "(" + std::to_string(first.instances) + " instance"));
    auto alone = passes({first.name});
    ASSERT_TRUE(alone.has_value());
    EXPECT_TRUE(contains(one.out, "passes              : " + std::to_string(*alone) + "\n"))
        << one.out;
    EXPECT_FALSE(contains(one.out, "counter_name        : " + host().counters.back().name + "\n"));
}

TEST_F(avail_host, pc_sampling_configurations_are_the_sdk_ones)
{
    auto configs = std::vector<rocprofiler_pc_sampling_configuration_t>{};
    auto rc      = rocprofiler_query_pc_sampling_agent_configurations(
        host().id,
        [](const rocprofiler_pc_sampling_configuration_t* list, size_t n, void* data)
        {
            auto* v = static_cast<std::vector<rocprofiler_pc_sampling_configuration_t>*>(data);
            v->insert(v->end(), list, list + n);
            return ROCPROFILER_STATUS_SUCCESS;
        },
        &configs);
    ASSERT_EQ(rc, ROCPROFILER_STATUS_SUCCESS);
    auto list = avail({"list", "--pc-sampling", "-d", device()});
    auto info = avail({"info", "--pc-sampling", "-d", device()});
    ASSERT_EQ(list.rc, 0) << list.err;
    ASSERT_EQ(info.rc, 0) << info.err;
    EXPECT_TRUE(contains(list.out, "Agents supporting PC Sampling\n"));
    EXPECT_EQ(contains(list.out, "GPU     :\t" + device() + "\nName    :\thost\n"),
              !configs.empty());
    if(configs.empty())
    {
        EXPECT_TRUE(contains(info.out, "configs :none"));
    }
    for(const auto& c : configs)
    {
        EXPECT_TRUE(contains(info.out, "min_interval        :" + std::to_string(c.min_interval)))
            << info.out;
        EXPECT_TRUE(contains(info.out, "max_interval        :" + std::to_string(c.max_interval)))
            << info.out;
    }
}

TEST_F(avail_host, pmc_check_of_a_set_that_fits)
{
    const auto base = base_counters();
    ASSERT_GE(base.size(), 2u);
    const auto pair = std::vector<std::string>{base[0], base[1]};
    ASSERT_EQ(passes(pair), 1u) << "the SDK does not collect two host counters in one pass";
    auto r = avail({"pmc-check", "-d", device(), pair[0], pair[1]});
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.out,
              "Following input counters can be collected together on GPU:" + device() + "\t" +
                  pair[0] + "\t" + pair[1] + "\n");
    // Without -d: every GPU agent that has them (only the host device here).
    EXPECT_EQ(avail({"pmc-check", pair[0], pair[1]}).out, r.out);
    // AMD's qualifier form names the agent per counter.
    auto q = avail({"pmc-check", pair[0] + ":device=" + device(), pair[1] + ":device=" + device()});
    EXPECT_EQ(q.rc, 0) << q.err;
    EXPECT_EQ(q.out, r.out);
}

TEST_F(avail_host, pmc_check_beyond_one_pass_gives_the_passes_and_the_split)
{
    // The smallest prefix of the base counters that the SDK refuses in one pass.
    const auto base = base_counters();
    auto       set  = std::vector<std::string>{};
    auto       rc   = ROCPROFILER_STATUS_SUCCESS;
    for(const auto& name : base)
    {
        set.push_back(name);
        auto n = passes(set, &rc);
        if(!n || *n > 1) break;
    }
    auto whole = passes(set, &rc);
    if(whole && *whole == 1) GTEST_SKIP() << "all host counters fit in one pass";
    auto args = std::vector<std::string>{"pmc-check", "-d", device()};
    args.insert(args.end(), set.begin(), set.end());
    auto r = avail(args);
    EXPECT_EQ(r.rc, 4) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "cannot be collected together in one pass on GPU:" + device()))
        << r.out;
    EXPECT_TRUE(contains(r.out, rocprofiler_get_status_name(rc))) << r.out;
    // Each --pmc line is a group the SDK collects in one pass; together they are the set; their
    // number is the pass count printed.
    auto groups = std::vector<std::vector<std::string>>{};
    auto in     = std::istringstream{r.out};
    for(std::string line; std::getline(in, line);)
        if(line.rfind("    --pmc ", 0) == 0) groups.push_back(words(line.substr(10)));
    ASSERT_GE(groups.size(), 2u) << r.out;
    auto seen = std::vector<std::string>{};
    for(const auto& g : groups)
    {
        EXPECT_EQ(passes(g), 1u);
        seen.insert(seen.end(), g.begin(), g.end());
    }
    std::sort(seen.begin(), seen.end());
    auto wanted = set;
    std::sort(wanted.begin(), wanted.end());
    EXPECT_EQ(seen, wanted);
    EXPECT_TRUE(contains(r.out, "they take " + std::to_string(groups.size()) + " passes")) << r.out;
}

TEST_F(avail_host, amd_names_check_like_native_counters)
{
    const sdk_counter* amd = nullptr;
    for(const auto& c : host().counters)
        if(c.derived && c.description.rfind("equivalent of AMD's " + c.name + ": ", 0) == 0)
        {
            amd = &c;
            break;
        }
    ASSERT_NE(amd, nullptr) << "the SDK offers no AMD counter name on the host device";
    auto r        = avail({"pmc-check", "-d", device(), amd->name});
    auto expected = passes({amd->name});
    ASSERT_TRUE(expected.has_value());
    EXPECT_EQ(r.rc, *expected == 1 ? 0 : 4) << r.err;
    EXPECT_TRUE(contains(r.out,
                         "note: " + amd->name + " is AMD's counter name: measured on GPU " +
                             device() + " (host"))
        << r.out;
    EXPECT_TRUE(contains(r.out, " as " + amd->expression + ", an equivalent")) << r.out;
    auto info = avail({"info", "--pmc", amd->name, "-d", device()});
    EXPECT_EQ(info.rc, 0) << info.err;
    EXPECT_TRUE(contains(info.out, "expression          : " + amd->expression + "\n"));
    EXPECT_TRUE(contains(info.out, "amd_equivalent      : measured as "));

    // An AMD name the table says has no equivalent on the host device: its reason, exit 3.
    auto error = std::string{};
    auto table = amd_names::read_file(fs::path{SHARE_DIR} / "amd_equivalents.json", error);
    ASSERT_TRUE(table.has_value()) << error;
    for(const auto& e : *table)
    {
        auto why = e.absent.find("host");
        if(why == e.absent.end()) continue;
        auto absent = avail({"pmc-check", "-d", device(), e.name});
        EXPECT_EQ(absent.rc, 3);
        EXPECT_TRUE(contains(absent.err,
                             "counter '" + e.name +
                                 "' is AMD's counter name with no equivalent on GPU " + device()))
            << absent.err;
        EXPECT_TRUE(contains(absent.err, why->second)) << absent.err;
        break;
    }
}

TEST_F(avail_host, metric_sets_list_and_check)
{
    auto error = std::string{};
    auto sets  = metric_sets::catalog{};
    ASSERT_TRUE(metric_sets::read_file(fs::path{SHARE_DIR} / "metrics.json", sets, error)) << error;
    const metric_sets::definition* usable = nullptr;
    for(const auto& name : metric_sets::names(sets))
    {
        const auto* set = metric_sets::find(sets, name, "host");
        if(set == nullptr) continue;
        auto has = [](const std::string& n)
        {
            return std::any_of(host().counters.begin(),
                               host().counters.end(),
                               [&n](const sdk_counter& c) { return c.name == n; });
        };
        if(metric_sets::missing(*set, has).empty() && !has(name))
        {
            usable = set;
            break;
        }
    }
    ASSERT_NE(usable, nullptr) << "no metric set of the host device";
    auto list = avail({"list", "--sets", "-d", device()});
    ASSERT_EQ(list.rc, 0) << list.err;
    auto metrics = std::string{};
    for(const auto& m : usable->metrics)
        metrics += (metrics.empty() ? "" : " ") + m;
    EXPECT_TRUE(contains(list.out, usable->name + "\t" + usable->description + "\n    " + metrics))
        << list.out;

    auto check    = avail({"pmc-check", "-d", device(), usable->name});
    auto expected = passes(usable->metrics);
    EXPECT_EQ(check.rc, expected && *expected == 1 ? 0 : 4) << check.out << check.err;
    EXPECT_TRUE(contains(check.out, "note: metric set " + usable->name + " is " + metrics))
        << check.out;
}

TEST_F(avail_host, bad_input_gets_its_own_exit_code)
{
    // Unknown counter: a real name with its last letter dropped is suggested back.
    const auto real = base_counters().front();
    const auto typo = real.substr(0, real.size() - 1);
    auto       r    = avail({"pmc-check", "-d", device(), typo});
    EXPECT_EQ(r.rc, 3);
    EXPECT_TRUE(contains(
        r.err, "rocprofv3-avail: error: unknown counter '" + typo + "' on GPU " + device()))
        << r.err;
    EXPECT_TRUE(contains(r.err, real)) << r.err;
    EXPECT_TRUE(r.out.empty());
    EXPECT_EQ(avail({"info", "--pmc", typo, "-d", device()}).rc, 3);

    // Unknown agent, in each command and in AMD's qualifier.
    for(const auto& args :
        std::vector<std::vector<std::string>>{{"-d", "99", "list"},
                                              {"info", "-d", "99"},
                                              {"pmc-check", "-d", "99", real},
                                              {"pmc-check", real + ":device=99"}})
    {
        auto bad = avail(args);
        EXPECT_EQ(bad.rc, 2) << args.front();
        EXPECT_TRUE(contains(bad.err, "no GPU agent 99 (GPU agents: GPU " + device() + " (host"))
            << bad.err;
    }

    // Unknown command, option or value: usage errors.
    auto cmd = avail({"lst"});
    EXPECT_EQ(cmd.rc, 1);
    EXPECT_TRUE(contains(cmd.err, "unknown command 'lst' (choose from list, info, pmc-check)"));
    EXPECT_EQ(avail({"list", "--pmc", "perhaps"}).rc, 1);
    EXPECT_EQ(avail({"pmc-check"}).rc, 1);
    EXPECT_EQ(avail({"-d", "x", "list"}).rc, 1);

    auto help = avail({});
    EXPECT_EQ(help.rc, 0);
    EXPECT_TRUE(contains(help.out, "usage: rocprofv3-avail"));
}
