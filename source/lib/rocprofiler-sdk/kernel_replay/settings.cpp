#include "kernel_replay/settings.hpp"

#include "common/environment.hpp"
#include "common/static_object.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <vector>

namespace rocprofiler::kernel_replay
{
namespace
{
replay_settings
from_environment()
{
    namespace env        = common::env;
    auto out             = replay_settings{};
    out.max_passes       = env::get(env::settings::replay_max_passes);
    out.drain_timeout_ns = env::get(env::settings::replay_drain_timeout_ms) * 1000 * 1000;
    out.pass_timeout_ns  = env::get(env::settings::replay_pass_timeout_ms) * 1000 * 1000;
    auto& ws             = out.write_set;
    ws.snapshot          = env::get(env::settings::replay_snapshot);
    ws.verify            = env::get(env::settings::replay_verify);
    ws.keep_baseline =
        env::get(env::settings::replay_verify_baseline) == env::verify_baseline::kept;
    ws.window_bytes = std::max<uint64_t>(env::get(env::settings::replay_predict_window_mb), 1)
                      << 20;
    ws.pointer_depth = static_cast<uint32_t>(env::get(env::settings::replay_pointer_depth));
    return out;
}

// The current values; a re-read publishes a new copy and keeps the old ones alive (tests re-read
// a handful of times), so that a reference handed out earlier stays valid.
struct session_settings
{
    std::atomic<const replay_settings*>           current = nullptr;
    std::vector<std::unique_ptr<replay_settings>> kept    = {};

    session_settings() { publish(); }

    void publish()
    {
        kept.push_back(std::make_unique<replay_settings>(from_environment()));
        current.store(kept.back().get(), std::memory_order_release);
    }
};

session_settings&
session()
{
    return common::static_object<session_settings, common::reset_order::replay>::get();
}
} // namespace

const replay_settings&
settings()
{
    return *session().current.load(std::memory_order_acquire);
}

void
reread_settings()
{
    session().publish();
}
} // namespace rocprofiler::kernel_replay
