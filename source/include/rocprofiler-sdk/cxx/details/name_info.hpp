/**
 * @file details/name_info.hpp
 * @brief Definitions of the name tables declared in rocprofiler-sdk/cxx/name_info.hpp.
 */
#pragma once

#if !defined(ROCPROFILER_SDK_CXX_NAME_INFO_HPP_)
#    include <rocprofiler-sdk/cxx/name_info.hpp>
#endif

#include <rocprofiler-sdk/buffer_tracing.h>
#include <rocprofiler-sdk/callback_tracing.h>
#include <rocprofiler-sdk/fwd.h>

#include <cstddef>
#include <vector>

namespace rocprofiler
{
namespace sdk
{
namespace utility
{
template <typename EnumT, typename ValueT>
typename name_info_impl<EnumT, ValueT>::item_array_t
name_info_impl<EnumT, ValueT>::items() const
{
    item_array_t out{};
    out.reserve(operations.size());
    for(size_t i = 0; i < operations.size(); ++i)
        out.emplace_back(static_cast<rocprofiler_tracing_operation_t>(i), &operations[i]);
    return out;
}

template <typename EnumT, typename ValueT>
void
name_info<EnumT, ValueT>::emplace(EnumT idx, const char* name)
{
    const auto pos = static_cast<size_t>(idx);
    if(impl.size() <= pos) impl.resize(pos + 1);
    impl[pos].value = idx;
    impl[pos].name  = support_type{}(name);
}

template <typename EnumT, typename ValueT>
void
name_info<EnumT, ValueT>::emplace(EnumT                           idx,
                                  rocprofiler_tracing_operation_t opidx,
                                  const char*                     name)
{
    const auto pos = static_cast<size_t>(idx);
    const auto op  = static_cast<size_t>(opidx);
    if(impl.size() <= pos) impl.resize(pos + 1);
    impl[pos].value = idx;
    auto& ops       = impl[pos].operations;
    if(ops.size() <= op) ops.resize(op + 1, support_type::default_value());
    ops[op] = support_type{}(name);
}

template <typename EnumT, typename ValueT>
typename name_info<EnumT, ValueT>::return_type
name_info<EnumT, ValueT>::at(EnumT idx) const
{
    return impl.at(static_cast<size_t>(idx)).name;
}

template <typename EnumT, typename ValueT>
typename name_info<EnumT, ValueT>::return_type
name_info<EnumT, ValueT>::at(EnumT idx, rocprofiler_tracing_operation_t opidx) const
{
    return impl.at(static_cast<size_t>(idx)).operations.at(static_cast<size_t>(opidx));
}

template <typename EnumT, typename ValueT>
typename name_info<EnumT, ValueT>::item_array_t
name_info<EnumT, ValueT>::items() const
{
    item_array_t out{};
    out.reserve(impl.size());
    for(const auto& kind : impl)
        out.emplace_back(&kind);
    return out;
}
} // namespace utility

/** @brief rocprofiler_status_t's success value, as a constant. */
constexpr auto success_v = ROCPROFILER_STATUS_SUCCESS;

template <typename Tp>
callback_name_info_t<Tp>
get_callback_tracing_names()
{
    using table_t = callback_name_info_t<Tp>;
    table_t table{};

    // Kinds first, then each kind's operations (a kind without operations keeps an empty list).
    std::vector<rocprofiler_callback_tracing_kind_t> kinds{};
    rocprofiler_iterate_callback_tracing_kinds(
        [](rocprofiler_callback_tracing_kind_t kind, void* data) -> int
        {
            static_cast<std::vector<rocprofiler_callback_tracing_kind_t>*>(data)->push_back(kind);
            return 0;
        },
        &kinds);
    for(auto kind : kinds)
    {
        const char* name = nullptr;
        if(rocprofiler_query_callback_tracing_kind_name(kind, &name, nullptr) == success_v &&
           name != nullptr)
            table.emplace(kind, name);
        rocprofiler_iterate_callback_tracing_kind_operations(
            kind,
            [](rocprofiler_callback_tracing_kind_t kind_v,
               rocprofiler_tracing_operation_t     operation,
               void*                               data) -> int
            {
                const char* op_name = nullptr;
                if(rocprofiler_query_callback_tracing_kind_operation_name(
                       kind_v, operation, &op_name, nullptr) == success_v &&
                   op_name != nullptr)
                    static_cast<table_t*>(data)->emplace(kind_v, operation, op_name);
                return 0;
            },
            &table);
    }
    return table;
}

template <typename Tp>
buffer_name_info_t<Tp>
get_buffer_tracing_names()
{
    using table_t = buffer_name_info_t<Tp>;
    table_t table{};

    std::vector<rocprofiler_buffer_tracing_kind_t> kinds{};
    rocprofiler_iterate_buffer_tracing_kinds(
        [](rocprofiler_buffer_tracing_kind_t kind, void* data) -> int
        {
            static_cast<std::vector<rocprofiler_buffer_tracing_kind_t>*>(data)->push_back(kind);
            return 0;
        },
        &kinds);
    for(auto kind : kinds)
    {
        const char* name = nullptr;
        if(rocprofiler_query_buffer_tracing_kind_name(kind, &name, nullptr) == success_v &&
           name != nullptr)
            table.emplace(kind, name);
        rocprofiler_iterate_buffer_tracing_kind_operations(
            kind,
            [](rocprofiler_buffer_tracing_kind_t kind_v,
               rocprofiler_tracing_operation_t   operation,
               void*                             data) -> int
            {
                const char* op_name = nullptr;
                if(rocprofiler_query_buffer_tracing_kind_operation_name(
                       kind_v, operation, &op_name, nullptr) == success_v &&
                   op_name != nullptr)
                    static_cast<table_t*>(data)->emplace(kind_v, operation, op_name);
                return 0;
            },
            &table);
    }
    return table;
}
} // namespace sdk
} // namespace rocprofiler
