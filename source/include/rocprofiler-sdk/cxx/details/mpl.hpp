/**
 * @file details/mpl.hpp
 * @brief Type traits the C++ helpers use (rocprofiler-sdk's `rocprofiler::sdk::mpl`): which
 * string types a name table can hold, and detection of container and stream traits.
 * Header-only; C++17.
 */
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <iterator>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace rocprofiler
{
namespace sdk
{
namespace mpl
{
/** @brief `Tp` without reference, const, volatile, and decayed (arrays to pointers). */
template <typename Tp> struct unqualified_identity
{
    using type = std::decay_t<Tp>;
};

template <typename Tp> using unqualified_identity_t = typename unqualified_identity<Tp>::type;

/** @brief Another name of unqualified_identity_t. */
template <typename Tp> using basic_identity_t = unqualified_identity_t<Tp>;

template <typename Tp, typename Up>
struct is_same_unqualified_identity
    : std::is_same<unqualified_identity_t<Tp>, unqualified_identity_t<Up>>
{
};

template <typename Tp, typename Up> using is_basic_same = is_same_unqualified_identity<Tp, Up>;

/**
 * @brief Whether a name table can hold names as `Tp`, and how one is made from the `const char*`
 * the C API gives: `const char*`, `std::string_view` and `std::string` are supported.
 */
template <typename Tp> struct string_support
{
    using type        = Tp;
    using return_type = void;

    static constexpr bool value = false;
    static constexpr void default_value() {}
};

template <> struct string_support<const char*>
{
    using type        = const char*;
    using return_type = const char*;

    static constexpr bool value = true;
    static constexpr type default_value() { return nullptr; }
    type                  operator()(const char* str) const { return str; }
};

template <> struct string_support<std::string_view>
{
    using type        = std::string_view;
    using return_type = std::string_view;

    static constexpr bool value = true;
    static constexpr type default_value() { return {}; }
    type operator()(const char* str) const { return (str != nullptr) ? type{str} : type{}; }
};

template <> struct string_support<std::string>
{
    using type        = std::string;
    using return_type = std::string;

    static constexpr bool value = true;
    static type           default_value() { return {}; }
    type operator()(const char* str) const { return (str != nullptr) ? type{str} : type{}; }
};

/** @brief True for `std::string`, `std::string_view`, `char*` and `const char*` (any qualifiers).
 */
template <typename Tp>
struct is_string_type
    : std::bool_constant<std::is_same_v<unqualified_identity_t<Tp>, std::string> ||
                         std::is_same_v<unqualified_identity_t<Tp>, std::string_view> ||
                         std::is_same_v<unqualified_identity_t<Tp>, char*> ||
                         std::is_same_v<unqualified_identity_t<Tp>, const char*>>
{
};

namespace detail
{
template <typename Tp, typename = void> struct has_traits_type : std::false_type
{
};
template <typename Tp>
struct has_traits_type<Tp, std::void_t<typename Tp::traits_type>> : std::true_type
{
};

template <typename Tp, typename = void> struct has_value_type : std::false_type
{
};
template <typename Tp>
struct has_value_type<Tp, std::void_t<typename Tp::value_type>> : std::true_type
{
};

template <typename Tp, typename = void> struct has_key_type : std::false_type
{
};
template <typename Tp> struct has_key_type<Tp, std::void_t<typename Tp::key_type>> : std::true_type
{
};

template <typename Tp, typename = void> struct has_mapped_type : std::false_type
{
};
template <typename Tp>
struct has_mapped_type<Tp, std::void_t<typename Tp::mapped_type>> : std::true_type
{
};

template <typename Tp, typename = void> struct has_empty : std::false_type
{
};
template <typename Tp>
struct has_empty<Tp, std::void_t<decltype(std::declval<Tp>().empty())>> : std::true_type
{
};

template <typename Tp, typename = void> struct streamable : std::false_type
{
};
template <typename Tp>
struct streamable<Tp, std::void_t<decltype(std::declval<std::ostream&>() << std::declval<Tp>())>>
    : std::true_type
{
};

template <typename Tp, typename = void> struct iterable : std::false_type
{
};
template <typename Tp>
struct iterable<
    Tp,
    std::void_t<decltype(std::begin(std::declval<Tp&>())), decltype(std::end(std::declval<Tp&>()))>>
    : std::true_type
{
};
} // namespace detail

/** @brief `has_traits<Tp>(0)`: whether `Tp::traits_type` exists. Likewise for the others. */
template <typename Tp>
constexpr bool
has_traits(int)
{
    return detail::has_traits_type<Tp>::value;
}

template <typename Tp>
constexpr bool
has_value_type(int)
{
    return detail::has_value_type<Tp>::value;
}

template <typename Tp>
constexpr bool
has_key_type(int)
{
    return detail::has_key_type<Tp>::value;
}

template <typename Tp>
constexpr bool
has_mapped_type(int)
{
    return detail::has_mapped_type<Tp>::value;
}

/** @brief Trait objects: `::value`, and callable for the same answer. */
template <typename Tp> struct has_empty_member_function
{
    static constexpr bool value = detail::has_empty<Tp>::value;
    constexpr bool        operator()() const { return value; }
};

template <typename Tp> struct can_stringify
{
    static constexpr bool value = detail::streamable<Tp>::value;
    constexpr can_stringify()   = default;
    constexpr explicit can_stringify(int) {}
    constexpr bool operator()() const { return value; }
    constexpr      operator bool() const { return value; }
};

template <typename Tp> using supports_ostream = can_stringify<Tp>;

template <typename Tp> struct is_iterable
{
    static constexpr bool value = detail::iterable<Tp>::value;
    constexpr is_iterable()     = default;
    constexpr explicit is_iterable(int) {}
    constexpr bool operator()() const { return value; }
    constexpr      operator bool() const { return value; }
};

/** @brief Whether `val` is empty: a container or string with `empty()`, a null or empty C string;
 * anything else is never empty. */
template <typename ArgT>
bool
is_empty(ArgT&& val)
{
    using arg_type = unqualified_identity_t<ArgT>;
    using raw_type = std::remove_cv_t<std::remove_reference_t<ArgT>>;
    if constexpr(std::is_array_v<raw_type>)
    {
        // A string literal or char array: empty when it starts with its terminator.
        if constexpr(std::is_same_v<std::remove_cv_t<std::remove_extent_t<raw_type>>, char>)
            return val[0] == '\0';
        else
            return false;
    }
    else if constexpr(std::is_same_v<arg_type, char*> || std::is_same_v<arg_type, const char*>)
        return val == nullptr || val[0] == '\0';
    else if constexpr(detail::has_empty<const arg_type&>::value)
        return val.empty();
    else
        return false;
}

namespace detail
{
template <typename ContainerT, typename... Args>
auto
emplace_into(ContainerT& container, int, Args&&... args)
    -> decltype(container.emplace_back(std::forward<Args>(args)...))
{
    return container.emplace_back(std::forward<Args>(args)...);
}

template <typename ContainerT, typename... Args>
auto
emplace_into(ContainerT& container, long, Args&&... args)
    -> decltype(container.emplace(std::forward<Args>(args)...))
{
    return container.emplace(std::forward<Args>(args)...);
}

template <typename ContainerT, typename ArgT>
auto
reserve_in(ContainerT& container, int, ArgT count) -> decltype(container.reserve(count), bool())
{
    container.reserve(count);
    return true;
}

template <typename ContainerT, typename ArgT>
bool
reserve_in(ContainerT&, long, ArgT)
{
    return false;
}
} // namespace detail

/** @brief Adds an element at the end of a sequence (`emplace_back`) or into a set or map
 * (`emplace`). */
template <typename ContainerT, typename... Args>
decltype(auto)
emplace(ContainerT& container, Args&&... args)
{
    return detail::emplace_into(container, 0, std::forward<Args>(args)...);
}

/** @brief Reserves room where the container can; returns whether it could. */
template <typename ContainerT, typename ArgT>
bool
reserve(ContainerT& container, ArgT count)
{
    return detail::reserve_in(container, 0, count);
}

/** @brief Always false, dependent on `Tp` (for static_assert in a discarded branch). */
template <typename Tp> struct assert_false
{
    static constexpr bool value = false;
};
} // namespace mpl
} // namespace sdk
} // namespace rocprofiler
