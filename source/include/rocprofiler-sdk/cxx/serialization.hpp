/**
 * @file cxx/serialization.hpp
 * @brief cereal archive support for the SDK's records and handles (save and load), as
 * rocprofiler-sdk's header of the same name offers. Needs cereal (Debian: libcereal-dev), which a
 * tool that includes this header already uses; the SDK itself does not.
 */
#pragma once

#include <rocprofiler-sdk/cxx/serialization/load.hpp>
#include <rocprofiler-sdk/cxx/serialization/save.hpp>
