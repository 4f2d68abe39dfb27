/**
 * @file name_info.hpp
 * @brief Name tables of the tracing kinds and their operations (rocprofiler-sdk's C++ helper):
 * `rocprofiler::sdk::get_callback_tracing_names()` and `get_buffer_tracing_names()` ask the SDK
 * for every kind's name and every operation's name once, and answer later look-ups from memory:
 * `names.at(kind)`, `names.at(kind, operation)`, `names[kind].name`, `names[kind](operation)`.
 * Header-only; C++17.
 */
#pragma once

#include <rocprofiler-sdk/cxx/details/mpl.hpp>
#include <rocprofiler-sdk/fwd.h>

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rocprofiler
{
namespace sdk
{
namespace utility
{
/** @brief One kind: its value, its name and the names of its operations (index = operation;
 * an operation without a name holds the empty value). */
template <typename EnumT, typename ValueT = std::string_view> struct name_info_impl
{
    using support_type = mpl::string_support<ValueT>;
    using enum_type    = EnumT;
    using value_type   = ValueT;
    using return_type  = typename support_type::return_type;
    using item_type    = std::pair<rocprofiler_tracing_operation_t, const value_type*>;
    using item_array_t = std::vector<item_type>;

    static_assert(support_type::value,
                  "name tables hold const char*, std::string_view or std::string");

    /** @brief The kind's name. */
    return_type operator()() const { return name; }
    /** @brief An operation's name; throws std::out_of_range past the last operation. */
    return_type operator()(size_t idx) const { return operations.at(idx); }
    return_type operator[](size_t idx) const { return operations.at(idx); }

    /** @brief Every operation with a pointer to its name, in operation order. */
    item_array_t items() const;

    EnumT                   value      = static_cast<EnumT>(0);
    value_type              name       = {};
    std::vector<value_type> operations = {};
};

/** @brief The table of every kind of one tracing form (index = kind). */
template <typename EnumT, typename ValueT = std::string_view> struct name_info
{
    using value_type   = name_info_impl<EnumT, ValueT>;
    using enum_type    = EnumT;
    using support_type = typename value_type::support_type;
    using return_type  = typename value_type::return_type;
    using item_type    = const value_type*;
    using item_array_t = std::vector<item_type>;

    /** @brief Records a kind's name. */
    void emplace(EnumT idx, const char* name);
    /** @brief Records the name of one operation of a kind. */
    void emplace(EnumT idx, rocprofiler_tracing_operation_t opidx, const char* name);

    /** @brief A kind's name, an operation's name; throw std::out_of_range for an unknown one. */
    return_type at(EnumT idx) const;
    return_type at(EnumT idx, rocprofiler_tracing_operation_t opidx) const;

    /** @brief Every kind, in kind order (kinds the SDK did not list have an empty name). */
    item_array_t items() const;

    size_t size() const { return impl.size(); }
    auto   begin() { return impl.begin(); }
    auto   begin() const { return impl.begin(); }
    auto   end() { return impl.end(); }
    auto   end() const { return impl.end(); }

    value_type&       operator[](size_t idx) { return impl.at(idx); }
    const value_type& operator[](size_t idx) const { return impl.at(idx); }

private:
    std::vector<value_type> impl = {};
};
} // namespace utility

template <typename Tp = std::string_view>
using callback_name_info_t = utility::name_info<rocprofiler_callback_tracing_kind_t, Tp>;

template <typename Tp = std::string_view>
using buffer_name_info_t = utility::name_info<rocprofiler_buffer_tracing_kind_t, Tp>;

using callback_name_info = callback_name_info_t<std::string_view>;
using buffer_name_info   = buffer_name_info_t<std::string_view>;

/** @brief The names of every callback tracing kind and operation the SDK lists. */
template <typename Tp = std::string_view> callback_name_info_t<Tp> get_callback_tracing_names();

/** @brief The names of every buffer tracing kind and operation the SDK lists. */
template <typename Tp = std::string_view> buffer_name_info_t<Tp> get_buffer_tracing_names();
} // namespace sdk
} // namespace rocprofiler

#define ROCPROFILER_SDK_CXX_NAME_INFO_HPP_ 1
#include <rocprofiler-sdk/cxx/details/name_info.hpp>
