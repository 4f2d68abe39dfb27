/**
 * @file details/join.hpp
 * @brief `rocprofiler::sdk::join::join(delimiter, args...)`: the arguments written to one string
 * with a delimiter between them (rocprofiler-sdk's C++ helper). Empty arguments are skipped;
 * containers are written as `[a, b]` and maps as `[{k, v}, ...]` (the `config`'s array and pair
 * forms); `join<QuoteStrings>` quotes string arguments. `quoted(x)` is x in double quotes.
 * Header-only; C++17.
 */
#pragma once

#include <rocprofiler-sdk/cxx/details/mpl.hpp>

#include <array>
#include <ios>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace rocprofiler
{
namespace sdk
{
namespace join
{
template <typename... ArgsT>
inline void
consume_args(ArgsT&&...)
{
}

enum
{
    NoQuoteStrings = 0x0,
    QuoteStrings   = 0x1
};

/** @brief A delimiter, and what comes before and after the joined text. */
template <size_t Idx> struct triplet_config
{
    static constexpr size_t index() { return Idx; }
    std::string_view        delimiter = {};
    std::string_view        prefix    = {};
    std::string_view        suffix    = {};
};

using generic_config = triplet_config<0>;
using array_config   = triplet_config<1>;
using pair_config    = triplet_config<2>;

/** @brief How join writes: the top-level triplet, the stream flags, and the forms of containers
 * (`array`) and of the key-value pairs of maps (`pair`). */
struct config : generic_config
{
    using format_flags_t = std::ios_base::fmtflags;
    using base_type      = generic_config;

    config() = default;
    config(std::string_view delim)
        : base_type{delim}
    {
    }
    config(const char* delim)
        : base_type{std::string_view{delim}}
    {
    }
    config(generic_config cfg)
        : base_type{cfg}
    {
    }
    config(array_config cfg)
        : array{cfg}
    {
    }
    config(pair_config cfg)
        : pair{cfg}
    {
    }
    config(generic_config generic, array_config arr)
        : base_type{generic}
        , array{arr}
    {
    }
    config(generic_config generic, pair_config pr)
        : base_type{generic}
        , pair{pr}
    {
    }
    config(array_config arr, pair_config pr)
        : array{arr}
        , pair{pr}
    {
    }

    format_flags_t flags = std::ios_base::boolalpha;
    array_config   array = {", ", "[", "]"};
    pair_config    pair  = {", ", "{", "}"};
};

namespace impl
{
template <int TraitT, typename ArgT>
void
write_arg(std::ostream& out, const config& cfg, const ArgT& val)
{
    using arg_type = mpl::basic_identity_t<ArgT>;
    if constexpr(mpl::is_string_type<arg_type>::value)
    {
        const auto text = (mpl::is_empty(val)) ? std::string_view{} : std::string_view{val};
        if constexpr(TraitT == QuoteStrings)
            out << '"' << text << '"';
        else
            out << text;
    }
    else if constexpr(mpl::is_iterable<arg_type>::value && !mpl::has_traits<arg_type>(0) &&
                      mpl::has_key_type<arg_type>(0) && mpl::has_mapped_type<arg_type>(0))
    {
        out << cfg.array.prefix;
        bool first = true;
        for(const auto& item : val)
        {
            if(!first) out << cfg.array.delimiter;
            first = false;
            out << cfg.pair.prefix;
            write_arg<TraitT>(out, cfg, item.first);
            out << cfg.pair.delimiter;
            write_arg<TraitT>(out, cfg, item.second);
            out << cfg.pair.suffix;
        }
        out << cfg.array.suffix;
    }
    else if constexpr(mpl::is_iterable<arg_type>::value && !mpl::has_traits<arg_type>(0) &&
                      mpl::has_value_type<arg_type>(0))
    {
        out << cfg.array.prefix;
        bool first = true;
        for(const auto& item : val)
        {
            if(!first) out << cfg.array.delimiter;
            first = false;
            write_arg<TraitT>(out, cfg, item);
        }
        out << cfg.array.suffix;
    }
    else
    {
        static_assert(mpl::can_stringify<const arg_type&>::value,
                      "join: an argument can be neither iterated nor written to a stream");
        out << val;
    }
}
} // namespace impl

/** @brief The non-empty arguments, delimited, between the config's prefix and suffix; the empty
 * string when every argument is empty. */
template <int TraitT = NoQuoteStrings, typename... Args>
std::string
join(config cfg, Args&&... args)
{
    std::ostringstream out{};
    out.setf(cfg.flags);
    bool any = false;
    auto one = [&](const auto& arg)
    {
        if(mpl::is_empty(arg)) return;
        if(any) out << cfg.delimiter;
        any = true;
        impl::write_arg<TraitT>(out, cfg, arg);
    };
    (one(args), ...);
    if(!any) return std::string{};
    return std::string{cfg.prefix} + out.str() + std::string{cfg.suffix};
}

/** @brief join with {delimiter, prefix, suffix}. */
template <int TraitT = NoQuoteStrings, typename... Args>
std::string
join(std::array<std::string_view, 3>&& delims, Args&&... args)
{
    config cfg{};
    cfg.delimiter = delims[0];
    cfg.prefix    = delims[1];
    cfg.suffix    = delims[2];
    return join<TraitT>(cfg, std::forward<Args>(args)...);
}

/** @brief join with a delimiter given as a string or a character. */
template <int TraitT = NoQuoteStrings,
          typename DelimT,
          typename... Args,
          std::enable_if_t<!mpl::is_basic_same<config, DelimT>::value, int> = 0>
std::string
join(DelimT&& delim, Args&&... args)
{
    using delim_type = mpl::basic_identity_t<DelimT>;
    if constexpr(std::is_same_v<delim_type, char>)
    {
        const char text[2] = {delim, '\0'};
        return join<TraitT>(config{std::string_view{text, 1}}, std::forward<Args>(args)...);
    }
    else
    {
        return join<TraitT>(config{std::string_view{delim}}, std::forward<Args>(args)...);
    }
}

/** @brief `arg` written between double quotes. */
template <typename ArgT>
std::string
quoted(ArgT&& arg)
{
    config cfg{};
    cfg.prefix = "\"";
    cfg.suffix = "\"";
    return join(cfg, std::forward<ArgT>(arg));
}
} // namespace join
} // namespace sdk
} // namespace rocprofiler
