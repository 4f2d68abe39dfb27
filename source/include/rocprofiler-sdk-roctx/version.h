/* Version of the ROCTx marker API these headers declare. */
#pragma once

#define ROCTX_VERSION_MAJOR 1
#define ROCTX_VERSION_MINOR 0
#define ROCTX_VERSION_PATCH 0

/** @brief major * 10000 + minor * 100 + patch */
#define ROCTX_VERSION                                                                              \
    ((ROCTX_VERSION_MAJOR * 10000) + (ROCTX_VERSION_MINOR * 100) + ROCTX_VERSION_PATCH)
