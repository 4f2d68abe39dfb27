// Derived counters: the expression language they are written in, and which of a set of
// definitions an agent can offer. Pure code over strings and numbers (no files, no registry, no
// backend): metrics_file.hpp reads the definitions, counters.cpp turns the ones an agent offers
// into counters.
//
// The language (docs/api.md, "Derived metrics"):
//     expression := term (('+' | '-') term)*
//     term       := unary (('*' | '/') unary)*
//     unary      := '-' unary | primary
//     primary    := number | name | ('min' | 'max') '(' expression ',' expression ')'
//                 | '(' expression ')'
// Numbers are decimal, with an optional fraction and exponent (1e9, 2.5E-3, .5). Names are the
// characters counter names use: a letter or '_', then letters, digits, '_' and '.'. Blanks
// between tokens are ignored.
//
// Evaluation is in double. A division by zero gives NaN (never 0, never an infinity), and NaN
// propagates through every operation, min and max included, so that a value that cannot be
// computed is never reported as a number.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rocprofiler::counters::derived
{
class expression
{
public:
    struct node;

    // Why a text is not an expression: `position` is the 1-based column (byte) where parsing
    // stopped, and `message` says what was expected there and includes the column.
    struct parse_error
    {
        size_t      position = 0;
        std::string message  = {};
    };

    // The expression of @p text, or nullopt with @p error filled.
    static std::optional<expression> parse(std::string_view text, parse_error* error);

    // The distinct counter names the expression uses, in order of first appearance.
    const std::vector<std::string>& names() const { return m_names; }

    // The value for @p values, where values[i] is the value of names()[i] (size must match).
    double evaluate(std::span<const double> values) const;

private:
    std::shared_ptr<const node> m_root  = {}; // immutable once parsed, shared by copies
    std::vector<std::string>    m_names = {};
};

// One definition as its file gives it, with the expression already parsed.
struct definition
{
    std::string                             name        = {};
    std::string                             text        = {}; // the expression as written
    expression                              parsed      = {};
    std::string                             description = {};
    std::string                             unit        = {};
    std::optional<std::vector<std::string>> agents      = {}; // absent: every agent
    std::string                             source      = {}; // file it came from, for messages
    // Not offered, without a message, on an agent it names that lacks a counter it uses: the
    // equivalents of AMD's counter names, whose absence rocprofv3 explains from the table itself.
    bool quiet_when_unavailable = false;
};

// How one operand of an offered definition is measured: a base counter of the agent (index into
// the agent's base names) or another offered definition (index into `offered`).
struct operand
{
    bool   is_base = true;
    size_t index   = 0;
};

struct offered_definition
{
    size_t               definition = 0;  // index into the definitions given to resolve()
    std::vector<operand> operands   = {}; // one per name of its expression, in that order
};

struct resolution
{
    // Definitions the agent offers, in the order of the definitions; an operand that is
    // another offered definition may come later in this list (evaluation follows the operands).
    std::vector<offered_definition> offered = {};
    // One message per definition that applies to the agent and is not offered for a reason the
    // user must hear about: a cycle, a name that is also one of the agent's base counters, or a
    // name that the agent lacks although `agents` names it explicitly. A definition that merely
    // uses counters an agent does not have, on an agent it does not name, is skipped silently.
    std::vector<std::string> errors = {};
};

// Which of @p definitions (distinct names) the agent @p agent_name offers, given the names of its
// base counters.
resolution resolve(const std::vector<definition>&  definitions,
                   std::string_view                agent_name,
                   const std::vector<std::string>& base_names);

} // namespace rocprofiler::counters::derived
