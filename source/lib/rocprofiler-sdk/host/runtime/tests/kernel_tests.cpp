#include "test_support.hpp"

#include <string>

using rocprofiler::host::test::unique_name;

namespace
{
void
kernel_a(const rocprofiler_host_work_item_t*, void*)
{
}
void
kernel_b(const rocprofiler_host_work_item_t*, void*)
{
}
} // namespace

TEST(host_kernels, registration_gives_stable_nonzero_ids_and_names)
{
    auto name_a = unique_name("kernel_a");
    auto name_b = unique_name("kernel_b");
    auto a      = rocprofiler_host_kernel_t{};
    auto b      = rocprofiler_host_kernel_t{};
    HOST_ASSERT_OK(rocprofiler_host_register_kernel(name_a.c_str(), kernel_a, 0, 0, &a));
    HOST_ASSERT_OK(rocprofiler_host_register_kernel(name_b.c_str(), kernel_b, 16, 256, &b));
    EXPECT_NE(a.handle, 0u);
    EXPECT_NE(b.handle, 0u);
    EXPECT_NE(a.handle, b.handle);

    const char* name = nullptr;
    HOST_ASSERT_OK(rocprofiler_host_kernel_name(a, &name));
    EXPECT_EQ(std::string{name}, name_a);
    HOST_ASSERT_OK(rocprofiler_host_kernel_name(b, &name));
    EXPECT_EQ(std::string{name}, name_b);

    auto info = rocprofiler::host::get_device().find_kernel(b);
    ASSERT_NE(info, nullptr);
    EXPECT_EQ(info->id, b.handle);
    EXPECT_EQ(info->function, &kernel_b);
    EXPECT_EQ(info->private_segment_size, 16u);
    EXPECT_EQ(info->group_segment_size, 256u);
}

TEST(host_kernels, duplicate_names)
{
    auto name  = unique_name("dup");
    auto first = rocprofiler_host_kernel_t{};
    auto again = rocprofiler_host_kernel_t{};
    HOST_ASSERT_OK(rocprofiler_host_register_kernel(name.c_str(), kernel_a, 8, 64, &first));
    // Same function and sizes: the existing handle.
    HOST_ASSERT_OK(rocprofiler_host_register_kernel(name.c_str(), kernel_a, 8, 64, &again));
    EXPECT_EQ(again.handle, first.handle);
    // Different function or sizes: refused.
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_register_kernel(name.c_str(), kernel_b, 8, 64, &again));
    EXPECT_EQ(again.handle, 0u);
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_register_kernel(name.c_str(), kernel_a, 0, 64, &again));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_register_kernel(name.c_str(), kernel_a, 8, 0, &again));
}

TEST(host_kernels, invalid_arguments)
{
    auto k    = rocprofiler_host_kernel_t{};
    auto name = unique_name("bad");
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_register_kernel(nullptr, kernel_a, 0, 0, &k));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_register_kernel("", kernel_a, 0, 0, &k));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_register_kernel(name.c_str(), nullptr, 0, 0, &k));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_register_kernel(name.c_str(), kernel_a, 0, 0, nullptr));
    HOST_EXPECT_STATUS(
        ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
        rocprofiler_host_register_kernel(
            name.c_str(), kernel_a, ROCPROFILER_HOST_MAX_PRIVATE_SEGMENT_SIZE + 1, 0, &k));
    HOST_EXPECT_STATUS(
        ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
        rocprofiler_host_register_kernel(
            name.c_str(), kernel_a, 0, ROCPROFILER_HOST_MAX_GROUP_SEGMENT_SIZE + 1, &k));
    // None of the failures registered the name.
    HOST_ASSERT_OK(rocprofiler_host_register_kernel(name.c_str(), kernel_b, 0, 0, &k));

    const char* out = nullptr;
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_kernel_name(rocprofiler_host_kernel_t{0}, &out));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_kernel_name(k, nullptr));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_NOT_FOUND,
                       rocprofiler_host_kernel_name(rocprofiler_host_kernel_t{1u << 30}, &out));
}
