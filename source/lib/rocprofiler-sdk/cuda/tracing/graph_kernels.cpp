#include "cuda/tracing/graph_kernels.hpp"

#include "agent/agent.hpp"
#include "common/logging.hpp"
#include "common/thread.hpp"
#include "correlation/correlation.hpp"
#include "cuda/backend.hpp"
#include "cuda/cupti/cupti_callbacks.hpp"
#include "cuda/cupti/settings_cupti.hpp"
#include "cuda/interpose/driver.hpp"
#include "cuda/launch/kernel_registry.hpp"
#include "cuda/launch/launch.hpp"
#include "cuda/timing/cupti_activity.hpp"
#include "dispatch/interception.hpp"

#include <atomic>
#include <string>

namespace rocprofiler::cuda::graph_kernels
{
namespace
{
uint32_t
positive(int32_t value)
{
    return value > 0 ? static_cast<uint32_t>(value) : 0;
}
} // namespace

std::optional<kernel_node>
decode(const CUpti_Activity& record)
{
    if(record.kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL &&
       record.kind != CUPTI_ACTIVITY_KIND_KERNEL)
        return std::nullopt;
    const auto& k = reinterpret_cast<const CUpti_ActivityKernel10&>(record);
    if(k.graphId == 0) return std::nullopt;
    auto node           = kernel_node{};
    node.correlation_id = k.correlationId;
    node.graph_id       = k.graphId;
    node.node_id        = k.graphNodeId;
    node.device         = k.deviceId;
    node.stream_id      = k.streamId;
    node.name           = k.name;
    node.grid[0]        = positive(k.gridX);
    node.grid[1]        = positive(k.gridY);
    node.grid[2]        = positive(k.gridZ);
    node.block[0]       = positive(k.blockX);
    node.block[1]       = positive(k.blockY);
    node.block[2]       = positive(k.blockZ);
    node.shared_bytes   = positive(k.staticSharedMemory) + positive(k.dynamicSharedMemory);
    node.local_bytes    = k.localMemoryPerThread;
    node.start_ns       = k.start;
    node.end_ns         = k.end;
    return node;
}

std::optional<graph_launch>
launch_of(CUpti_CallbackId          cbid,
          const CUpti_CallbackData& data,
          uint64_t                  internal_id,
          uint64_t                  ancestor_id,
          uint64_t                  thread_id)
{
    if(cbid != CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch &&
       cbid != CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz)
        return std::nullopt;
    if(data.callbackSite != CUPTI_API_ENTER) return std::nullopt;
    auto launch        = graph_launch{};
    launch.internal_id = internal_id;
    launch.ancestor_id = ancestor_id;
    launch.thread_id   = thread_id;
    launch.per_thread  = cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz;
    if(const auto* params = static_cast<const cuGraphLaunch_params*>(data.functionParams))
        launch.stream = params->hStream;
    return launch;
}

tracer::tracer(dispatch_sink sink, agent_lookup agents, kernel_lookup kernels, size_t max_launches)
    : m_max{max_launches == 0 ? 1 : max_launches}
    , m_sink{std::move(sink)}
    , m_agents{std::move(agents)}
    , m_kernels{std::move(kernels)}
{
}

bool
tracer::on_launch(uint32_t cupti_id, const graph_launch& launch, bool nodes_traced)
{
    auto lock = std::lock_guard{m_mutex};
    ++m_stats.launches;
    if(!nodes_traced) return ++m_stats.untraced == 1;
    if(m_launches.insert_or_assign(cupti_id, launch).second) m_order.push_back(cupti_id);
    while(m_order.size() > m_max)
    {
        m_launches.erase(m_order.front());
        m_order.pop_front();
    }
    return false;
}

bool
tracer::on_record(const CUpti_Activity& record)
{
    const auto node = decode(record);
    if(!node) return false;
    auto launch = std::optional<graph_launch>{};
    {
        auto lock = std::lock_guard{m_mutex};
        ++m_stats.nodes;
        if(auto itr = m_launches.find(node->correlation_id); itr != m_launches.end())
            launch = itr->second;
        else
            ++m_stats.unmatched;
    }
    if(!launch) return true;
    const auto agent = m_agents(node->device);
    if(!agent)
    {
        auto lock = std::lock_guard{m_mutex};
        ++m_stats.no_agent;
        return true;
    }
    const auto kernel                  = m_kernels(*node, *agent);
    auto       observed                = dispatch::observed_dispatch{};
    observed.info.agent                = *agent;
    observed.info.queue                = rocprofiler_queue_id_t{queue_handle(
        launch->stream, static_cast<int>(node->device), launch->per_thread, launch->thread_id)};
    observed.info.kernel_id            = kernel.id;
    observed.info.private_segment_size = node->local_bytes;
    observed.info.group_segment_size   = node->shared_bytes;
    observed.info.workgroup_size       = {node->block[0], node->block[1], node->block[2]};
    observed.info.grid_size            = {node->grid[0] * node->block[0],
                                          node->grid[1] * node->block[1],
                                          node->grid[2] * node->block[2]};
    observed.info.kernel_name          = kernel.name;
    observed.internal_id               = launch->internal_id;
    observed.ancestor_id               = launch->ancestor_id;
    observed.thread_id                 = launch->thread_id;
    observed.start_ns                  = node->start_ns;
    observed.end_ns                    = node->end_ns;
    observed.graph                     = dispatch::graph_node{node->graph_id, node->node_id};
    const auto id                      = m_sink(observed, *node);
    auto       lock                    = std::lock_guard{m_mutex};
    if(id != 0) ++m_stats.delivered;
    return true;
}

tracer_stats
tracer::stats() const
{
    auto lock = std::lock_guard{m_mutex};
    return m_stats;
}

namespace
{
std::atomic<tracer*> process_tracer = nullptr;

tracer*
make_process_tracer()
{
    auto sink = [](const dispatch::observed_dispatch& observed, const kernel_node& node)
    {
        const auto id = dispatch::deliver_observed(observed);
        ROCP_LOG(debug) << "cuda: graph " << node.graph_id << " node " << node.node_id << " kernel "
                        << observed.info.kernel_name << ": dispatch " << id << ", correlation "
                        << observed.internal_id;
        return id;
    };
    auto agents  = [](uint32_t device) { return agent::id_of(get_device_backend(), device); };
    auto kernels = [](const kernel_node& node, rocprofiler_agent_id_t agent)
    {
        const auto& entry = lookup_kernel_by_name(node.name);
        report_kernel_once(entry, entry.function, agent);
        return kernel_ref{entry.id, entry.name.c_str()};
    };
    return new tracer{sink, agents, kernels, 4096}; // CUPTI may deliver at exit: never freed
}

// Reports at exit the graph launches whose nodes no output shows.
struct untraced_report
{
    untraced_report()                                  = default;
    untraced_report(const untraced_report&)            = delete;
    untraced_report& operator=(const untraced_report&) = delete;
    ~untraced_report()
    {
        const auto* t = process_tracer.load(std::memory_order_acquire);
        if(t == nullptr || !common::log::enabled(common::log::level::warning)) return;
        const auto stats = t->stats();
        if(stats.untraced == 0) return;
        common::log::write(common::log::level::warning,
                           "cuda: " + std::to_string(stats.untraced) + " of " +
                               std::to_string(stats.launches) +
                               " CUDA graph launches ran while CUPTI's kernel activity was off "
                               "(dispatches were counted): their kernel nodes are in no output, "
                               "neither traced nor counted");
    }
};

void
on_graph_launch(CUpti_CallbackDomain, CUpti_CallbackId cbid, const CUpti_CallbackData* data)
{
    if(data == nullptr || data->callbackSite != CUPTI_API_ENTER) return;
    if(dispatch::interception_active())
    {
        // The agent of the launching thread's context, for the outcome.
        auto dev   = CUdevice{};
        auto agent = rocprofiler_agent_id_t{};
        {
            auto scope = internal_call_scope{};
            if(driver()->cuCtxGetDevice(&dev) == CUDA_SUCCESS)
                agent = agent::id_of(get_device_backend(), static_cast<uint32_t>(dev))
                            .value_or(rocprofiler_agent_id_t{});
        }
        dispatch::report_excluded_launch(
            "cuGraphLaunch", dispatch::decline_reason::graph_launch, agent);
    }
    auto* t = process_tracer.load(std::memory_order_acquire);
    if(t == nullptr) return;
    if(auto launch = launch_of(cbid,
                               *data,
                               correlation::next_id(),
                               correlation::current_ancestor(),
                               common::thread_id()))
    {
        static untraced_report report; // says at exit how many launches no output shows
        if(t->on_launch(data->correlationId, *launch, timing::activity_on()))
            ROCP_LOG(warning)
                << "cuda: a CUDA graph was launched while CUPTI's kernel activity is off, as "
                   "it is while a context counts dispatches (its kernel records would change "
                   "the counted values): the kernel nodes of such launches are neither traced "
                   "nor counted; their number is reported at exit";
    }
}
} // namespace

void
start()
{
    static std::once_flag once;
    std::call_once(once,
                   []
                   {
                       // ROCPROFILER_CUDA_CUPTI=0: no CUPTI at all, graph kernels untraced.
                       if(!dispatch::any_consumer() || !settings::read_cupti_activity_enabled())
                           return;
                       const auto* table = timing::activity_table();
                       if(table == nullptr) return;
                       process_tracer.store(make_process_tracer(), std::memory_order_release);
                       cupti_callbacks::route(*table,
                                              CUPTI_CB_DOMAIN_DRIVER_API,
                                              {CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch,
                                               CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz},
                                              on_graph_launch);
                   });
}

bool
on_record(const CUpti_Activity& record)
{
    auto* t = process_tracer.load(std::memory_order_acquire);
    if(t != nullptr) return t->on_record(record);
    return decode(record).has_value(); // a graph's node: never a launch's record
}
} // namespace rocprofiler::cuda::graph_kernels
