// Tool discovery and the SDK's lifecycle.
//
// States, in order: not initialized -> configuring (clients' rocprofiler_configure run) ->
// initializing (clients' initialize run) -> locked (configuration calls are refused) ->
// finalized. initialize() is called by every runtime adapter on its first use, and by
// rocprofiler_force_configure(); it is idempotent and thread-safe, and a call made from inside a
// tool's own configure or initialize (on the initializing thread) returns at once.
#pragma once

#include "context/context.hpp"

#include <rocprofiler-sdk/registration.h>

#include <cstdint>
#include <string>

namespace rocprofiler::registration
{
// Runs discovery and every client's configure and initialize, once.
void initialize();

// Finalizes every client still active (once each), flushes and destroys buffers. Runs at process
// exit; safe to call more than once.
void finalize();

// True once every client's initialize has run: configuration calls must then be refused.
bool configuration_locked();

// True between initialize() completing and finalize() starting.
bool is_active();

// 0 before initialize(), 1 from its start on (rocprofiler_is_initialized).
int initialized_status();

// 0 before finalize(), 1 from its start on (rocprofiler_is_finalized).
int finalized_status();

// rocprofiler_force_configure.
rocprofiler_status_t force_configure(rocprofiler_configure_func_t func);

// The client whose configure or initialize is running on this thread (0 when none). Contexts
// created then belong to it.
uint32_t current_client();

// Finalizes one client (the fini_func handed to a client's initialize).
void finalize_client(uint32_t client_handle);

// True when the client has been finalized (its contexts deliver nothing further).
bool client_finalized(uint32_t client_handle);

// How messages name a client: "tool '<name>' (<where it came from>)"; "a tool" for handle 0 or an
// unknown one.
std::string client_label(uint32_t client_handle);

// The context a configuration call may change: ERROR_CONFIGURATION_LOCKED once configuration is
// locked, ERROR_CONTEXT_NOT_FOUND for an unknown id, else SUCCESS with *ctx set. The first checks
// of every rocprofiler_configure_*_service entry point, in the order the API documents.
rocprofiler_status_t configurable_context(rocprofiler_context_id_t id, context::context** ctx);

// Tests only: finalizes (as at exit), then returns the SDK to its just-loaded state: no client,
// no context, no buffer, no callback thread but the default one, no counter configuration, the
// replay domain unclaimed, dispatch and correlation ids from 1 again; rocprofiler_force_configure
// and discovery run again on the next initialize(). Agents, counter definitions, kernel symbols
// and the adapters' hooks are facts of the process and stay (common/static_object.hpp). Call only
// while no other thread uses the SDK (the device idle, no tool thread inside the SDK).
void reset_for_tests();
} // namespace rocprofiler::registration
