#include "cuda/sampling/pc_sampling_session.hpp"

#include "common/logging.hpp"
#include "cuda/cupti/cupti_call.hpp"
#include "cuda/cupti/cupti_loader.hpp"

#include <algorithm>
#include <atomic>
#include <string>
#include <utility>

namespace rocprofiler::cuda::pc_sampling
{
namespace
{
CUpti_PCSamplingConfigurationInfo
attribute(CUpti_PCSamplingConfigurationAttributeType type)
{
    auto info          = CUpti_PCSamplingConfigurationInfo{};
    info.attributeType = type;
    return info;
}

std::atomic<const cupti_pc_sampling_table*> installed_table = nullptr;
} // namespace

void
session::buffer::reset(size_t stall_reasons)
{
    pcs.assign(pcs_per_read, CUpti_PCSamplingPCData{});
    reasons.assign(pcs_per_read, std::vector<CUpti_PCSamplingStallReason>(stall_reasons));
    for(size_t i = 0; i < pcs.size(); ++i)
    {
        pcs[i].size        = sizeof(CUpti_PCSamplingPCData);
        pcs[i].stallReason = reasons[i].data();
    }
    data               = CUpti_PCSamplingData{};
    data.size          = sizeof(CUpti_PCSamplingData);
    data.collectNumPcs = pcs.size();
    data.pPcData       = pcs.data();
}

session::session(const cupti_pc_sampling_table& table, CUcontext ctx, uint64_t interval_cycles)
    : m_table{table}
    , m_ctx{ctx}
    , m_interval{interval_cycles}
{
}

session::~session()
{
    disable();
}

bool
session::call(CUptiResult result, const char* what)
{
    if(result == CUPTI_SUCCESS) return true;
    if(m_error.empty()) m_error = cupti_failure(what, result, m_table.cuptiGetResultString);
    return false;
}

bool
session::start()
{
    const auto exponent = period_exponent(m_interval);
    if(!exponent)
    {
        m_error = "PC sampling interval " + std::to_string(m_interval) +
                  " is not a power of two from 2^5 to 2^31 cycles";
        return false;
    }

    auto enable = CUpti_PCSamplingEnableParams{};
    enable.size = CUpti_PCSamplingEnableParamsSize;
    enable.ctx  = m_ctx;
    if(!call(m_table.cuptiPCSamplingEnable(&enable), "cuptiPCSamplingEnable")) return false;
    m_enabled = true;

    // Every stall reason CUPTI knows is selected: a PC is reported only with a selected reason.
    auto count          = size_t{0};
    auto num            = CUpti_PCSamplingGetNumStallReasonsParams{};
    num.size            = CUpti_PCSamplingGetNumStallReasonsParamsSize;
    num.ctx             = m_ctx;
    num.numStallReasons = &count;
    if(!call(m_table.cuptiPCSamplingGetNumStallReasons(&num), "cuptiPCSamplingGetNumStallReasons"))
    {
        disable();
        return false;
    }
    m_indices.assign(count, 0);
    auto name_storage =
        std::vector<std::vector<char>>(count, std::vector<char>(CUPTI_STALL_REASON_STRING_SIZE));
    auto name_ptrs = std::vector<char*>(count);
    for(size_t i = 0; i < count; ++i)
        name_ptrs[i] = name_storage[i].data();
    auto reasons             = CUpti_PCSamplingGetStallReasonsParams{};
    reasons.size             = CUpti_PCSamplingGetStallReasonsParamsSize;
    reasons.ctx              = m_ctx;
    reasons.numStallReasons  = count;
    reasons.stallReasonIndex = m_indices.data();
    reasons.stallReasons     = name_ptrs.data();
    if(!call(m_table.cuptiPCSamplingGetStallReasons(&reasons), "cuptiPCSamplingGetStallReasons"))
    {
        disable();
        return false;
    }
    m_names = stall_reason_names(m_indices.data(), name_ptrs.data(), count);

    m_config_buffer = std::make_unique<buffer>();
    m_config_buffer->reset(count);
    m_read_buffer = std::make_unique<buffer>();
    m_read_buffer->reset(count);

    auto attrs = std::vector<CUpti_PCSamplingConfigurationInfo>{};
    auto a     = attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD);
    a.attributeData.samplingPeriodData.samplingPeriod = *exponent;
    attrs.push_back(a);
    a = attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_STALL_REASON);
    a.attributeData.stallReasonData.stallReasonCount  = count;
    a.attributeData.stallReasonData.pStallReasonIndex = m_indices.data();
    attrs.push_back(a);
    a = attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE);
    a.attributeData.collectionModeData.collectionMode =
        CUPTI_PC_SAMPLING_COLLECTION_MODE_KERNEL_SERIALIZED;
    attrs.push_back(a);
    a = attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL);
    a.attributeData.enableStartStopControlData.enableStartStopControl = 1;
    attrs.push_back(a);
    a = attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_OUTPUT_DATA_FORMAT);
    a.attributeData.outputDataFormatData.outputDataFormat =
        CUPTI_PC_SAMPLING_OUTPUT_DATA_FORMAT_PARSED;
    attrs.push_back(a);
    a = attribute(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER);
    a.attributeData.samplingDataBufferData.samplingDataBuffer = &m_config_buffer->data;
    attrs.push_back(a);

    auto config                         = CUpti_PCSamplingConfigurationInfoParams{};
    config.size                         = CUpti_PCSamplingConfigurationInfoParamsSize;
    config.ctx                          = m_ctx;
    config.numAttributes                = attrs.size();
    config.pPCSamplingConfigurationInfo = attrs.data();
    if(!call(m_table.cuptiPCSamplingSetConfigurationAttribute(&config),
             "cuptiPCSamplingSetConfigurationAttribute"))
    {
        disable();
        return false;
    }

    auto start = CUpti_PCSamplingStartParams{};
    start.size = CUpti_PCSamplingStartParamsSize;
    start.ctx  = m_ctx;
    if(!call(m_table.cuptiPCSamplingStart(&start), "cuptiPCSamplingStart"))
    {
        disable();
        return false;
    }
    m_started = true;
    return true;
}

void
session::take(const decoded_data& data)
{
    for(const auto& pc : data.pcs)
    {
        const auto name = m_names.find(pc.stall_reason);
        m_delivered +=
            append_samples(pc, name != m_names.end() ? name->second : std::string_view{}, m_batch);
        m_stalls[pc.stall_reason] += pc.samples;
    }
    m_cupti_total += data.total_samples;
    m_cupti_largest = std::max(m_cupti_largest, data.total_samples);
    m_non_user += data.non_user_samples;
    ++m_reads;
    m_batch.dropped += data.dropped_samples;
    if(data.hardware_buffer_full)
        common::log::warn_once("cuda-pc-sampling-hw-full",
                               "cuda: PC sampling hardware buffer full; samples were lost "
                               "(a longer interval loses fewer)");
}

dispatch::pc_sample_batch
session::finish(uint64_t timestamp_ns)
{
    if(!m_started)
    {
        disable();
        m_batch.samples.clear();
        m_batch.error = m_error.empty() ? std::string{"PC sampling was not started"} : m_error;
        return std::move(m_batch);
    }
    m_started = false;
    auto stop = CUpti_PCSamplingStopParams{};
    stop.size = CUpti_PCSamplingStopParamsSize;
    stop.ctx  = m_ctx;
    call(m_table.cuptiPCSamplingStop(&stop), "cuptiPCSamplingStop");

    // Every PC of the range, one buffer at a time, until CUPTI holds none.
    for(size_t reads = 0; reads < 1u << 16; ++reads)
    {
        m_read_buffer->reset(m_indices.size());
        auto get           = CUpti_PCSamplingGetDataParams{};
        get.size           = CUpti_PCSamplingGetDataParamsSize;
        get.ctx            = m_ctx;
        get.pcSamplingData = &m_read_buffer->data;
        const auto result  = m_table.cuptiPCSamplingGetData(&get);
        if(result == CUPTI_ERROR_OUT_OF_MEMORY)
            m_read_buffer->data.hardwareBufferFull = 1; // taken below: reported as lost
        else if(!call(result, "cuptiPCSamplingGetData"))
            break;
        const auto decoded = decode(m_read_buffer->data);
        take(decoded);
        if(decoded.remaining_pcs == 0 || m_read_buffer->data.totalNumPcs == 0) break;
    }
    disable();
    // What CUPTI wrote to the configured buffer when sampling was disabled.
    if(m_config_buffer) take(decode(m_config_buffer->data));

    for(auto& sample : m_batch.samples)
        sample.timestamp_ns = timestamp_ns;
    // CUPTI's own count of the range's samples against the samples delivered. CUPTI's
    // totalSamples includes the dropped samples and those of kernels it shows no PCs of, so
    // delivered + dropped + non-user equals it when every sample has one reason and the
    // "_not_issued" twins are subsets (pc_sampling_stalls.hpp). Whether CUPTI repeats the
    // range's total in each read or splits it is not documented: both the sum over reads and the
    // largest single read are logged.
    ROCP_LOG(info) << "cuda: PC sampling range: CUPTI counted " << m_cupti_total << " sample(s), "
                   << m_delivered << " delivered, " << m_batch.dropped << " dropped, " << m_non_user
                   << " non-user, " << m_reads << " read(s), largest read " << m_cupti_largest;
    if(m_batch.dropped != 0)
        common::log::warn_once("cuda-pc-sampling-dropped",
                               "cuda: CUPTI dropped PC samples; they are counted as dropped");
    if(!m_error.empty() && m_batch.samples.empty()) m_batch.error = m_error;
    return std::move(m_batch);
}

void
session::disable()
{
    if(!m_enabled) return;
    m_enabled   = false;
    auto params = CUpti_PCSamplingDisableParams{};
    params.size = CUpti_PCSamplingDisableParamsSize;
    params.ctx  = m_ctx;
    call(m_table.cuptiPCSamplingDisable(&params), "cuptiPCSamplingDisable");
}

const cupti_pc_sampling_table*
table()
{
    if(const auto* t = installed_table.load(std::memory_order_acquire)) return t;
    static const auto loaded = load_table(cupti_library());
    return loaded ? &*loaded : nullptr;
}

void
use_table(const cupti_pc_sampling_table* t)
{
    installed_table.store(t, std::memory_order_release);
}
} // namespace rocprofiler::cuda::pc_sampling
