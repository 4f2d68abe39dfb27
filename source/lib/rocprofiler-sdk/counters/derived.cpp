#include "counters/derived.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <system_error>

namespace rocprofiler::counters::derived
{
struct expression::node
{
    enum class kind
    {
        number,
        name,
        add,
        subtract,
        multiply,
        divide,
        negate,
        min,
        max,
    };

    kind                        type  = kind::number;
    double                      value = 0.0; // number
    size_t                      index = 0;   // name: index into names()
    std::unique_ptr<const node> lhs   = {};  // binary operators and functions; negate's operand
    std::unique_ptr<const node> rhs   = {};
};

namespace
{
using node      = expression::node;
using node_kind = expression::node::kind;

// Deeper nesting than this is refused rather than risking the stack on hostile input.
constexpr size_t max_depth = 200;

bool
name_start(char c)
{
    return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_';
}

bool
name_char(char c)
{
    return name_start(c) || std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '.';
}

class parser
{
public:
    explicit parser(std::string_view text)
        : m_text{text}
    {
    }

    // The whole text as one expression, or null with error() set.
    std::unique_ptr<const node> parse_all()
    {
        auto root = parse_sum(0);
        if(!root) return nullptr;
        skip_blanks();
        if(m_pos < m_text.size()) return fail("expected an operator or the end, found " + found());
        return root;
    }

    const expression::parse_error& error() const { return m_error; }
    std::vector<std::string>&      names() { return m_names; }

private:
    std::unique_ptr<const node> parse_sum(size_t depth)
    {
        auto lhs = parse_product(depth);
        while(lhs)
        {
            skip_blanks();
            if(!at('+') && !at('-')) break;
            auto type = at('+') ? node_kind::add : node_kind::subtract;
            ++m_pos;
            auto rhs = parse_product(depth);
            if(!rhs) return nullptr;
            lhs = binary(type, std::move(lhs), std::move(rhs));
        }
        return lhs;
    }

    std::unique_ptr<const node> parse_product(size_t depth)
    {
        auto lhs = parse_unary(depth);
        while(lhs)
        {
            skip_blanks();
            if(!at('*') && !at('/')) break;
            auto type = at('*') ? node_kind::multiply : node_kind::divide;
            ++m_pos;
            auto rhs = parse_unary(depth);
            if(!rhs) return nullptr;
            lhs = binary(type, std::move(lhs), std::move(rhs));
        }
        return lhs;
    }

    std::unique_ptr<const node> parse_unary(size_t depth)
    {
        if(depth > max_depth) return fail("the expression nests deeper than 200 levels");
        skip_blanks();
        if(!at('-')) return parse_primary(depth);
        ++m_pos;
        auto operand = parse_unary(depth + 1);
        if(!operand) return nullptr;
        auto out  = std::make_unique<node>();
        out->type = node_kind::negate;
        out->lhs  = std::move(operand);
        return out;
    }

    std::unique_ptr<const node> parse_primary(size_t depth)
    {
        skip_blanks();
        if(m_pos >= m_text.size()) return fail("expected a number, a name or '(', found the end");
        auto c = m_text[m_pos];
        if(c == '(')
        {
            ++m_pos;
            auto inner = parse_sum(depth + 1);
            if(!inner) return nullptr;
            if(!expect(')')) return nullptr;
            return inner;
        }
        if(std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '.') return parse_number();
        if(name_start(c)) return parse_name(depth);
        return fail("expected a number, a name or '(', found " + found());
    }

    std::unique_ptr<const node> parse_number()
    {
        // Scanned here so that the accepted form does not depend on from_chars' own grammar
        // (which would take "inf" or "nan"); from_chars then converts exactly this span.
        auto start  = m_pos;
        auto digits = [this]
        {
            auto n = size_t{0};
            while(m_pos < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_pos])))
            {
                ++m_pos;
                ++n;
            }
            return n;
        };
        auto count = digits();
        if(at('.'))
        {
            ++m_pos;
            count += digits();
        }
        if(count == 0)
        {
            m_pos = start;
            return fail("expected a digit, found " + found());
        }
        if(at('e') || at('E'))
        {
            ++m_pos;
            if(at('+') || at('-')) ++m_pos;
            if(digits() == 0) return fail("expected the digits of an exponent, found " + found());
        }
        auto        value = 0.0;
        const auto* first = m_text.data() + start;
        const auto* last  = m_text.data() + m_pos;
        auto [ptr, ec]    = std::from_chars(first, last, value);
        if(ec != std::errc{} || ptr != last)
        {
            m_pos = start;
            return fail("the number '" + std::string{first, last} + "' is out of range");
        }
        auto out   = std::make_unique<node>();
        out->type  = node_kind::number;
        out->value = value;
        return out;
    }

    std::unique_ptr<const node> parse_name(size_t depth)
    {
        auto start = m_pos;
        while(m_pos < m_text.size() && name_char(m_text[m_pos]))
            ++m_pos;
        auto name  = std::string{m_text.substr(start, m_pos - start)};
        auto after = m_pos;
        skip_blanks();
        if(at('('))
        {
            if(name != "min" && name != "max")
            {
                m_pos = start;
                return fail("unknown function '" + name + "' (the functions are min and max)");
            }
            ++m_pos;
            auto lhs = parse_sum(depth + 1);
            if(!lhs || !expect(',')) return nullptr;
            auto rhs = parse_sum(depth + 1);
            if(!rhs || !expect(')')) return nullptr;
            return binary(
                name == "min" ? node_kind::min : node_kind::max, std::move(lhs), std::move(rhs));
        }
        m_pos      = after;
        auto index = m_names.size();
        for(size_t i = 0; i < m_names.size(); ++i)
            if(m_names[i] == name) index = i;
        if(index == m_names.size()) m_names.emplace_back(name);
        auto out   = std::make_unique<node>();
        out->type  = node_kind::name;
        out->index = index;
        return out;
    }

    static std::unique_ptr<const node>
    binary(node_kind type, std::unique_ptr<const node> lhs, std::unique_ptr<const node> rhs)
    {
        auto out  = std::make_unique<node>();
        out->type = type;
        out->lhs  = std::move(lhs);
        out->rhs  = std::move(rhs);
        return out;
    }

    bool expect(char c)
    {
        skip_blanks();
        if(at(c))
        {
            ++m_pos;
            return true;
        }
        fail(std::string{"expected '"} + c + "', found " + found());
        return false;
    }

    void skip_blanks()
    {
        while(m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos])))
            ++m_pos;
    }

    bool at(char c) const { return m_pos < m_text.size() && m_text[m_pos] == c; }

    std::string found() const
    {
        if(m_pos >= m_text.size()) return "the end";
        return std::string{"'"} + m_text[m_pos] + "'";
    }

    std::unique_ptr<const node> fail(const std::string& what)
    {
        if(m_error.message.empty())
        {
            m_error.position = m_pos + 1;
            m_error.message  = "column " + std::to_string(m_pos + 1) + ": " + what;
        }
        return nullptr;
    }

    std::string_view         m_text  = {};
    size_t                   m_pos   = 0;
    std::vector<std::string> m_names = {};
    expression::parse_error  m_error = {};
};

double
evaluate_node(const node& n, std::span<const double> values)
{
    constexpr auto nan = std::numeric_limits<double>::quiet_NaN();
    switch(n.type)
    {
    case node_kind::number:
        return n.value;
    case node_kind::name:
        return values[n.index];
    case node_kind::negate:
        return -evaluate_node(*n.lhs, values);
    default:
        break;
    }
    auto lhs = evaluate_node(*n.lhs, values);
    auto rhs = evaluate_node(*n.rhs, values);
    switch(n.type)
    {
    case node_kind::add:
        return lhs + rhs;
    case node_kind::subtract:
        return lhs - rhs;
    case node_kind::multiply:
        return lhs * rhs;
    case node_kind::divide:
        return rhs == 0.0 ? nan : lhs / rhs;
    // std::fmin/fmax would return the other operand for one NaN: propagate it instead.
    case node_kind::min:
        return (std::isnan(lhs) || std::isnan(rhs)) ? nan : std::min(lhs, rhs);
    case node_kind::max:
        return (std::isnan(lhs) || std::isnan(rhs)) ? nan : std::max(lhs, rhs);
    default:
        break;
    }
    return nan; // unreachable: every kind is handled above
}
} // namespace

std::optional<expression>
expression::parse(std::string_view text, parse_error* error)
{
    auto p    = parser{text};
    auto root = p.parse_all();
    if(!root)
    {
        if(error != nullptr) *error = p.error();
        return std::nullopt;
    }
    auto out    = expression{};
    out.m_root  = std::shared_ptr<const node>{std::move(root)};
    out.m_names = std::move(p.names());
    return out;
}

double
expression::evaluate(std::span<const double> values) const
{
    if(!m_root || values.size() != m_names.size()) return std::numeric_limits<double>::quiet_NaN();
    return evaluate_node(*m_root, values);
}

namespace
{
enum class visit_state
{
    unvisited,
    visiting, // on the current path: reaching it again is a cycle
    offered,
    skipped,
};

struct resolver
{
    const std::vector<definition>&     definitions;
    std::string_view                   agent_name;
    std::map<std::string_view, size_t> bases      = {}; // name -> base index
    std::map<std::string_view, size_t> applicable = {}; // name -> definition index
    std::vector<visit_state>           state      = {};
    std::vector<std::optional<size_t>> offered_at = {}; // definition -> index in offered
    std::vector<std::string>           path       = {}; // names on the current path
    resolution                         out        = {};

    bool names_agent(const definition& def) const
    {
        if(!def.agents) return false;
        for(const auto& name : *def.agents)
            if(name == agent_name) return true;
        return false;
    }

    std::string where(const definition& def) const
    {
        return def.source + ": derived metric '" + def.name + "'";
    }

    // One definition being visited: the operand it looks at next and those it has so far.
    struct frame
    {
        size_t             index     = 0;
        size_t             next_name = 0;
        offered_definition entry     = {};
    };

    void start(size_t i, std::vector<frame>& stack)
    {
        state[i] = visit_state::visiting;
        path.emplace_back(definitions[i].name);
        stack.push_back(frame{i, 0, offered_definition{i, {}}});
    }

    void finish(std::vector<frame>& stack, bool ok)
    {
        auto f = std::move(stack.back());
        stack.pop_back();
        path.pop_back();
        if(!ok)
        {
            state[f.index] = visit_state::skipped;
            return;
        }
        state[f.index]      = visit_state::offered;
        offered_at[f.index] = out.offered.size();
        out.offered.emplace_back(std::move(f.entry));
    }

    void report_cycle(const definition& def)
    {
        // The names from @p def's place on the path to its end; a long cycle is shown by its ends
        // so that one message stays readable (and small) whatever the file holds.
        constexpr size_t shown = 8;
        auto             first = std::find(path.begin(), path.end(), def.name);
        auto             count = static_cast<size_t>(path.end() - first);
        auto             cycle = std::string{};
        for(auto itr = first; itr != path.end(); ++itr)
        {
            auto at = static_cast<size_t>(itr - first);
            if(count > 2 * shown && at == shown)
            {
                cycle += "... (" + std::to_string(count - 2 * shown) + " more) -> ";
                itr += static_cast<std::ptrdiff_t>(count - 2 * shown - 1);
                continue;
            }
            cycle += *itr + " -> ";
        }
        out.errors.emplace_back(where(def) + " is part of a cycle (" + cycle + def.name +
                                "); it is not offered");
    }

    // Visits definition @p i and every definition it uses, depth first with a stack of its own (a
    // chain of 10^6 metrics, each using the next, must not overflow the thread's stack). A
    // definition is offered when all its operands are base counters or offered definitions; the
    // definitions on a cycle are skipped as the visit unwinds.
    void visit(size_t i)
    {
        if(state[i] != visit_state::unvisited) return;
        auto stack = std::vector<frame>{};
        start(i, stack);
        while(!stack.empty())
        {
            auto&       f     = stack.back();
            const auto& def   = definitions[f.index];
            const auto& names = def.parsed.names();
            if(f.next_name == names.size())
            {
                finish(stack, true);
                continue;
            }
            const auto& name = names[f.next_name];
            if(auto base = bases.find(name); base != bases.end())
            {
                f.entry.operands.push_back({true, base->second});
                ++f.next_name;
                continue;
            }
            auto other = applicable.find(name);
            if(other != applicable.end())
            {
                auto used = other->second;
                if(state[used] == visit_state::offered)
                {
                    f.entry.operands.push_back({false, *offered_at[used]});
                    ++f.next_name;
                    continue;
                }
                if(state[used] == visit_state::unvisited)
                {
                    start(used, stack); // f is not used after this: the stack may have moved
                    continue;
                }
                if(state[used] == visit_state::visiting) report_cycle(definitions[used]);
            }
            if(names_agent(def) && !def.quiet_when_unavailable)
                out.errors.emplace_back(
                    where(def) + " uses '" + name + "', which agent '" + std::string{agent_name} +
                    (other == applicable.end() ? "' does not have" : "' does not offer") +
                    "; it is not offered there");
            finish(stack, false);
        }
    }
};
} // namespace

resolution
resolve(const std::vector<definition>&  definitions,
        std::string_view                agent_name,
        const std::vector<std::string>& base_names)
{
    auto r = resolver{definitions, agent_name};
    for(size_t i = 0; i < base_names.size(); ++i)
        r.bases.emplace(base_names[i], i);
    r.state.assign(definitions.size(), visit_state::unvisited);
    r.offered_at.assign(definitions.size(), std::nullopt);
    for(size_t i = 0; i < definitions.size(); ++i)
    {
        const auto& def = definitions[i];
        if(def.agents && !r.names_agent(def)) continue;
        if(r.bases.count(def.name) != 0)
        {
            r.out.errors.emplace_back(r.where(def) + " has the name of a base counter of agent '" +
                                      std::string{agent_name} + "'; it is not offered there");
            r.state[i] = visit_state::skipped;
            continue;
        }
        r.applicable.emplace(def.name, i);
    }
    for(size_t i = 0; i < definitions.size(); ++i)
        if(r.applicable.count(definitions[i].name) != 0 &&
           r.applicable.at(definitions[i].name) == i)
            r.visit(i);

    // Offered in the order of the definitions, whatever order the visits took.
    auto order  = std::vector<size_t>(r.out.offered.size());
    auto sorted = r.out.offered;
    std::sort(sorted.begin(),
              sorted.end(),
              [](const auto& a, const auto& b) { return a.definition < b.definition; });
    for(size_t i = 0; i < sorted.size(); ++i)
        order[*r.offered_at[sorted[i].definition]] = i;
    for(auto& entry : sorted)
        for(auto& op : entry.operands)
            if(!op.is_base) op.index = order[op.index];
    r.out.offered = std::move(sorted);
    return std::move(r.out);
}
} // namespace rocprofiler::counters::derived
