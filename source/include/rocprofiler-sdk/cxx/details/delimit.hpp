/**
 * @file details/delimit.hpp
 * @brief The parsing helpers under their older header name; see details/tokenize.hpp.
 */
#pragma once

#include <rocprofiler-sdk/cxx/details/tokenize.hpp>
