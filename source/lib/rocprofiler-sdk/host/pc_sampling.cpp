#include "host/pc_sampling.hpp"

#include "common/environment.hpp"
#include "common/logging.hpp"
#include "common/static_object.hpp"
#include "host/pc_sample_ring.hpp"
#include "host/settings.hpp"

#include <cstdint>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <string>

// glibc names the thread id of a SIGEV_THREAD_ID event only through its union before 2.35.
#ifndef sigev_notify_thread_id
#    define sigev_notify_thread_id _sigev_un._tid
#endif

namespace rocprofiler::host
{
namespace
{
#if defined(__x86_64__) || defined(__aarch64__)
constexpr bool supported_architecture = true;
#else
constexpr bool supported_architecture = false;
#endif

// Shortest interval: posix CPU-time timers expire on the scheduler tick, so shorter ones would
// promise samples the kernel does not take; longest: one second, beyond which a kernel of the
// host device gets no sample at all.
constexpr uint64_t min_interval_ns = 1000 * 1000;
constexpr uint64_t max_interval_ns = 1000 * 1000 * 1000;

// Samples a worker holds per execution (ROCPROFILER_HOST_PC_SAMPLING_RING, default 4096: at the
// shortest interval, about 4 s of one worker's CPU time). More are counted as dropped and
// reported. Read once, when the first ring is made.
size_t
ring_capacity()
{
    static const auto value = static_cast<size_t>(common::env::get(settings::pc_sampling_ring));
    return value;
}

// A real-time signal near the top of the range, where applications and runtimes rarely look
// (glibc and sanitizers use the bottom of it).
int
sampling_signal()
{
    return SIGRTMAX - 2;
}

uint64_t
interrupted_pc(const void* context)
{
    const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
    return static_cast<uint64_t>(uc->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
    return static_cast<uint64_t>(uc->uc_mcontext.pc);
#else
    (void)uc;
    return 0;
#endif
}

// Async-signal-safe: clock_gettime and lock-free atomics only, errno kept.
void
on_sampling_signal(int, siginfo_t* info, void* context)
{
    const auto saved_errno = errno;
    if(info != nullptr && info->si_code == SI_TIMER && info->si_value.sival_ptr != nullptr)
    {
        auto ts = timespec{};
        // CLOCK_MONOTONIC is the device's clock (steady_clock), so samples compare with the
        // dispatch records' timestamps.
        clock_gettime(CLOCK_MONOTONIC, &ts);
        const auto now =
            static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<uint64_t>(ts.tv_nsec);
        static_cast<pc_sample_ring*>(info->si_value.sival_ptr)->push(interrupted_pc(context), now);
    }
    errno = saved_errno;
}

bool
handler_is_ours(const struct sigaction& action)
{
    return (action.sa_flags & SA_SIGINFO) != 0 && action.sa_sigaction == on_sampling_signal;
}

// Installs the handler unless the application owns the signal. Returns why not, or empty.
std::string
install_handler()
{
    static std::mutex mutex;
    auto              lock    = std::lock_guard{mutex};
    struct sigaction  current = {};
    if(sigaction(sampling_signal(), nullptr, &current) != 0)
        return std::string{"sigaction: "} + std::strerror(errno);
    if(handler_is_ours(current)) return {};
    if((current.sa_flags & SA_SIGINFO) != 0 || current.sa_handler != SIG_DFL)
        return "the application handles signal SIGRTMAX-2, which PC sampling of the host device "
               "uses";
    struct sigaction action = {};
    action.sa_sigaction     = on_sampling_signal;
    action.sa_flags         = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    if(sigaction(sampling_signal(), &action, nullptr) != 0)
        return std::string{"sigaction: "} + std::strerror(errno);
    return {};
}

// Whether the application took the signal: only a handler other than ours, or none, counts.
bool
signal_available()
{
    struct sigaction current = {};
    if(sigaction(sampling_signal(), nullptr, &current) != 0) return false;
    return handler_is_ours(current) ||
           ((current.sa_flags & SA_SIGINFO) == 0 && current.sa_handler == SIG_DFL);
}

bool
cpu_timers_available()
{
    auto event                   = sigevent{};
    event.sigev_notify           = SIGEV_THREAD_ID;
    event.sigev_signo            = sampling_signal();
    event.sigev_notify_thread_id = static_cast<pid_t>(syscall(SYS_gettid));
    auto timer                   = timer_t{};
    if(timer_create(CLOCK_THREAD_CPUTIME_ID, &event, &timer) != 0) return false;
    timer_delete(timer);
    return true;
}

// One ring per worker index, for the life of the process: a signal a sanitizer delivered late
// may still reach a ring after its execution ended, so rings are never freed.
pc_sample_ring*
ring_of(uint32_t worker_index)
{
    static std::mutex mutex;
    struct rings_tag;
    static auto* rings = &common::static_object<std::vector<pc_sample_ring*>,
                                                common::reset_order::never,
                                                rings_tag>::get();
    auto         lock  = std::lock_guard{mutex};
    if(rings->size() <= worker_index) rings->resize(worker_index + 1, nullptr);
    auto*& ring = (*rings)[worker_index];
    if(ring == nullptr) ring = new pc_sample_ring{ring_capacity()};
    return ring;
}

// Reads `bytes` at `offset` of a file; false on a short read.
bool
read_at(int fd, uint64_t offset, void* out, size_t bytes)
{
    auto* dst = static_cast<char*>(out);
    while(bytes > 0)
    {
        const auto n = pread(fd, dst, bytes, static_cast<off_t>(offset));
        if(n <= 0) return false;
        dst += n;
        offset += static_cast<uint64_t>(n);
        bytes -= static_cast<size_t>(n);
    }
    return true;
}

// The size of the function at `entry` from the full symbol table (.symtab) of the object file
// that holds it: kernels are usually static functions, which no dynamic symbol table lists.
// 0 when the file has no such symbol (a stripped binary).
uint64_t
function_size_from_symtab(const Dl_info& info, uint64_t entry)
{
    const char* path =
        (info.dli_fname != nullptr && *info.dli_fname != '\0') ? info.dli_fname : "/proc/self/exe";
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if(fd < 0) return 0;
    auto size   = uint64_t{0};
    auto header = ElfW(Ehdr){};
    if(read_at(fd, 0, &header, sizeof(header)) &&
       std::memcmp(header.e_ident, ELFMAG, SELFMAG) == 0 &&
       header.e_shentsize == sizeof(ElfW(Shdr)))
    {
        // A position-independent object's symbols are relative to its load base.
        const auto bias = header.e_type == ET_DYN ? reinterpret_cast<uint64_t>(info.dli_fbase) : 0;
        auto       sections = std::vector<ElfW(Shdr)>(header.e_shnum);
        if(read_at(fd, header.e_shoff, sections.data(), sections.size() * sizeof(ElfW(Shdr))))
        {
            for(const auto& section : sections)
            {
                if(section.sh_type != SHT_SYMTAB || section.sh_entsize != sizeof(ElfW(Sym)))
                    continue;
                auto symbols = std::vector<ElfW(Sym)>(section.sh_size / sizeof(ElfW(Sym)));
                if(!read_at(
                       fd, section.sh_offset, symbols.data(), symbols.size() * sizeof(ElfW(Sym))))
                    continue;
                for(const auto& sym : symbols)
                    if(ELF64_ST_TYPE(sym.st_info) == STT_FUNC && sym.st_size != 0 &&
                       sym.st_value + bias == entry)
                        size = sym.st_size;
            }
        }
    }
    close(fd);
    return size;
}

// The size of the function at `entry`, from its symbol: the dynamic symbol table first (cheap),
// then the file's full symbol table; 0 when neither knows it. Remembered per address, since
// every dispatch of a sampled kernel asks.
uint64_t
function_size(uint64_t entry)
{
    static std::mutex mutex;
    struct known_tag;
    static auto* known = &common::static_object<std::map<uint64_t, uint64_t>,
                                                common::reset_order::never,
                                                known_tag>::get();
    auto         lock  = std::lock_guard{mutex};
    if(auto itr = known->find(entry); itr != known->end()) return itr->second;

    auto        info   = Dl_info{};
    const void* symbol = nullptr;
    auto        size   = uint64_t{0};
    // NOLINTNEXTLINE(performance-no-int-to-ptr)
    if(dladdr1(
           reinterpret_cast<void*>(entry), &info, const_cast<void**>(&symbol), RTLD_DL_SYMENT) != 0)
    {
        if(symbol != nullptr && reinterpret_cast<uint64_t>(info.dli_saddr) == entry)
            size = static_cast<const ElfW(Sym)*>(symbol)->st_size;
        if(size == 0) size = function_size_from_symtab(info, entry);
    }
    known->emplace(entry, size);
    return size;
}

timespec
to_timespec(uint64_t ns)
{
    return timespec{static_cast<time_t>(ns / 1000000000ULL), static_cast<long>(ns % 1000000000ULL)};
}
} // namespace

std::vector<backend::pc_sampling_configuration>
pc_sampling_configurations()
{
    if(!supported_architecture || !signal_available() || !cpu_timers_available()) return {};
    auto config         = backend::pc_sampling_configuration{};
    config.method       = ROCPROFILER_PC_SAMPLING_METHOD_HOST_TRAP;
    config.unit         = ROCPROFILER_PC_SAMPLING_UNIT_TIME;
    config.min_interval = min_interval_ns;
    config.max_interval = max_interval_ns;
    config.flags        = 0; // any interval in range, not only powers of 2
    return {config};
}

pc_sampling_session::pc_sampling_session(
    std::shared_ptr<const dispatch::pc_sampling_request> request,
    const kernel_info&                                   kernel,
    uint32_t                                             workers)
    : m_request{std::move(request)}
    , m_entry{reinterpret_cast<uint64_t>(kernel.function)}
    , m_timers(workers)
{
    m_size = function_size(m_entry);
    if(m_size == 0)
        common::log::warn_once("pc_sampling.kernel_size." + kernel.name,
                               "PC sampling: the size of host kernel '" + kernel.name +
                                   "' is unknown (no symbol table of its binary lists it: "
                                   "stripped?), so its samples carry absolute addresses");
    if(auto why = install_handler(); !why.empty())
    {
        m_batch.error = std::move(why);
        m_unavailable = true;
    }
}

pc_sampling_session::~pc_sampling_session()
{
    finish();
}

void
pc_sampling_session::on_worker_begin(uint32_t worker_index)
{
    // m_unavailable is fixed before the execution starts; m_batch is the workers' shared state.
    if(m_unavailable || worker_index >= m_timers.size()) return;
    auto* ring = ring_of(worker_index);
    // A kernel that runs another execution synchronously on its worker: the outer one keeps it.
    if(ring->armed()) return;
    auto event                   = sigevent{};
    event.sigev_notify           = SIGEV_THREAD_ID;
    event.sigev_signo            = sampling_signal();
    event.sigev_value.sival_ptr  = ring;
    event.sigev_notify_thread_id = static_cast<pid_t>(syscall(SYS_gettid));
    auto timer                   = timer_t{};
    ring->arm();
    if(timer_create(CLOCK_THREAD_CPUTIME_ID, &event, &timer) != 0)
    {
        ring->disarm();
        auto lock = std::lock_guard{m_mutex};
        if(m_batch.error.empty())
            m_batch.error =
                std::string{"timer_create(CLOCK_THREAD_CPUTIME_ID): "} + std::strerror(errno);
        return;
    }
    const auto period = to_timespec(m_request->interval);
    const auto spec   = itimerspec{period, period};
    timer_settime(timer, 0, &spec, nullptr);
    m_timers[worker_index] = std::make_unique<worker_timer>(worker_timer{ring, timer});
}

void
pc_sampling_session::on_worker_end(uint32_t worker_index)
{
    if(worker_index >= m_timers.size() || !m_timers[worker_index]) return;
    auto worker = std::move(m_timers[worker_index]);
    // Disarm first: a signal between the two is after the worker's work and is no sample of it.
    // Deleting the timer on this thread discards a signal still pending for it.
    worker->ring->disarm();
    timer_delete(worker->timer);

    auto samples = std::vector<dispatch::pc_sample>{};
    worker->ring->drain(
        [&](const pc_sample_ring::entry& e)
        {
            auto sample         = dispatch::pc_sample{};
            sample.pc           = e.pc;
            sample.timestamp_ns = e.timestamp_ns;
            sample.worker       = worker_index;
            sample.in_kernel    = m_size != 0 && e.pc >= m_entry && e.pc < m_entry + m_size;
            if(sample.in_kernel) sample.offset = e.pc - m_entry;
            samples.emplace_back(sample);
        });
    auto lock = std::lock_guard{m_mutex};
    m_batch.samples.insert(m_batch.samples.end(), samples.begin(), samples.end());
    m_batch.dropped += worker->ring->dropped();
}

void
pc_sampling_session::finish()
{
    auto batch = dispatch::pc_sample_batch{};
    {
        auto lock = std::lock_guard{m_mutex};
        if(m_delivered) return;
        m_delivered = true;
        batch       = std::move(m_batch);
    }
    // Outside the lock: delivery writes the tool's buffer, whose callback may run here.
    if(m_request && m_request->deliver) m_request->deliver(batch);
}
} // namespace rocprofiler::host
