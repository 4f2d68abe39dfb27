/**
 * @file details/tokenize.hpp
 * @brief String parsing helpers (rocprofiler-sdk's C++ helper, `rocprofiler::sdk::parse`):
 * `from_string<T>`, `tokenize` (by any of a set of characters, or by any of a list of
 * delimiter strings), `str_transform`, `strip`. Header-only; C++17.
 */
#pragma once

#include <rocprofiler-sdk/cxx/details/mpl.hpp>

#include <cstddef>
#include <functional>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rocprofiler
{
namespace sdk
{
namespace parse
{
/** @brief A value read from a string with `operator>>` (a value-initialized one when that fails).
 */
template <typename Tp>
inline Tp
from_string(const std::string& str)
{
    std::istringstream in{str};
    Tp                 val{};
    in >> val;
    return val;
}

template <typename Tp>
inline Tp
from_string(const char* cstr)
{
    return from_string<Tp>(std::string{(cstr != nullptr) ? cstr : ""});
}

/** @brief The non-empty pieces of `line` between any of the characters of `delimiters`, each
 * passed through `predicate`. */
template <typename ContainerT = std::vector<std::string>,
          typename ValueT     = typename ContainerT::value_type,
          typename PredicateT = std::function<ValueT(ValueT&&)>>
inline ContainerT
tokenize(
    std::string_view line,
    std::string_view delimiters = "\"',;: ",
    PredicateT&&     predicate  = [](ValueT&& s) -> ValueT { return std::move(s); })
{
    ContainerT out{};
    size_t     pos = 0;
    while(pos < line.size())
    {
        const auto begin = line.find_first_not_of(delimiters, pos);
        if(begin == std::string_view::npos) break;
        auto end = line.find_first_of(delimiters, begin);
        if(end == std::string_view::npos) end = line.size();
        mpl::emplace(out, predicate(ValueT{line.substr(begin, end - begin)}));
        pos = end;
    }
    return out;
}

/** @brief The pieces of `line` between occurrences of any of the delimiter strings (the earliest
 * one found each time); empty pieces are kept. */
template <typename ContainerT = std::vector<std::string>,
          typename DelimT     = std::string_view,
          typename ValueT     = typename ContainerT::value_type,
          typename PredicateT = ValueT (*)(DelimT&&)>
inline ContainerT
tokenize(
    std::string_view           line,
    const std::vector<DelimT>& delimiters,
    PredicateT&&               predicate = [](DelimT&& s) -> ValueT { return ValueT{s}; })
{
    ContainerT out{};
    size_t     start = 0;
    while(true)
    {
        size_t best     = std::string_view::npos;
        size_t best_len = 0;
        for(const auto& delim : delimiters)
        {
            const auto dv = std::string_view{delim};
            if(dv.empty()) continue;
            const auto found = line.find(dv, start);
            if(found != std::string_view::npos && (best == std::string_view::npos || found < best))
            {
                best     = found;
                best_len = dv.size();
            }
        }
        if(best == std::string_view::npos)
        {
            mpl::emplace(out, predicate(DelimT{line.substr(start)}));
            break;
        }
        mpl::emplace(out, predicate(DelimT{line.substr(start, best - start)}));
        start = best + best_len;
    }
    return out;
}

/** @brief `input` with every span that starts with `begin` and ends before the next `end` (or
 * is just `begin` when `end` is empty) replaced by `predicate(span)`. */
template <typename PredicateT = std::function<std::string(const std::string&)>>
inline std::string
str_transform(std::string_view input,
              std::string_view begin,
              std::string_view end,
              PredicateT&&     predicate)
{
    std::string out{input};
    if(begin.empty()) return out;
    size_t pos = 0;
    while(pos < out.size())
    {
        const auto first = out.find(begin, pos);
        if(first == std::string::npos) break;
        const auto last = end.empty() ? first + begin.size() : out.find(end, first + 1);
        if(last == std::string::npos) break;
        const std::string span = out.substr(first, last - first);
        const std::string repl = predicate(span);
        out.replace(first, span.size(), repl);
        pos = first + repl.size();
    }
    return out;
}

/** @brief `str` without the leading and trailing characters found in `characters`. */
inline std::string
strip(std::string&& str, std::string_view characters)
{
    const auto first = str.find_first_not_of(characters);
    if(first == std::string::npos) return std::string{};
    const auto last = str.find_last_not_of(characters);
    return str.substr(first, last - first + 1);
}
} // namespace parse
} // namespace sdk
} // namespace rocprofiler
