#include "alloc_counter.hpp"

#include "core/asan.hpp"

#include <dlfcn.h>
#include <execinfo.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>

namespace {
std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};
std::atomic<long long> g_bytes{0};

// PLIANT_ALLOC_TRACE=1 in the environment: each counted allocation writes its call stack to stderr
// (backtrace_symbols_fd allocates nothing; resolve the "exe(+0x...)" offsets with addr2line -f -C -e).
const bool g_trace = [] {
  const char* v = std::getenv("PLIANT_ALLOC_TRACE");
  return v && *v == '1';
}();
thread_local bool t_tracing = false;

void trace() {
  if (t_tracing) return;  // backtrace() may allocate once, loading the unwinder
  t_tracing = true;
  void* frames[24];
  const int n = backtrace(frames, 24);
  static const char kLine[] = "---- counted allocation\n";
  (void)!write(2, kLine, sizeof kLine - 1);
  backtrace_symbols_fd(frames, n, 2);
  t_tracing = false;
}

// attribute_allocations_to: the library whose allocations are also counted apart, and their count.
std::atomic<const char*> g_library{nullptr};
std::atomic<long> g_attributed{0};
thread_local bool t_attributing = false;
// backtrace() loads the unwinder (and allocates) on its first call: made here, before any counting.
const bool g_unwinder_loaded = [] {
  void* frame[1];
  return backtrace(frame, 1) >= 0;
}();

// Whether the calling stack passes through a shared object whose path contains `library`.
bool called_from(const char* library) {
  if (t_attributing || !g_unwinder_loaded) return false;
  t_attributing = true;
  void* frames[64];
  const int n = backtrace(frames, 64);
  bool found = false;
  for (int i = 0; i < n && !found; ++i) {
    Dl_info info;
    found = dladdr(frames[i], &info) != 0 && info.dli_fname && std::strstr(info.dli_fname, library);
  }
  t_attributing = false;
  return found;
}

// Relaxed: the counts are read after count_allocations(false), which the counted code precedes.
inline void note(std::size_t bytes) {
  if (!g_counting.load(std::memory_order_relaxed)) return;
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  g_bytes.fetch_add(static_cast<long long>(bytes), std::memory_order_relaxed);
  if (const char* library = g_library.load(std::memory_order_relaxed); library && called_from(library))
    g_attributed.fetch_add(1, std::memory_order_relaxed);
  if (g_trace) trace();
}
}  // namespace

#ifdef PLIANT_ASAN  // core/asan.hpp: g++ or clang
// AddressSanitizer intercepts malloc and its siblings itself; a second definition in the executable
// would take its place and lose the sanitizer's checks. Its allocator calls the installed hook for every
// allocation, whichever function asked (malloc, calloc, realloc, posix_memalign, operator new ...).
// GCC 12 ships no <sanitizer/allocator_interface.h>, so the runtime's entry point is declared here.
extern "C" int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void*,
                                                                             std::size_t),
                                                         void (*free_hook)(const volatile void*));

namespace {
void on_malloc(const volatile void*, std::size_t bytes) { note(bytes); }
void on_free(const volatile void*) {}
const int g_installed = __sanitizer_install_malloc_and_free_hooks(&on_malloc, &on_free);
}  // namespace

namespace pliant::test {
const char* allocation_counter_method() { return g_installed ? "sanitizer malloc hook" : "none"; }
}  // namespace pliant::test

#else
// The C allocator, replaced for this executable (glibc allows it: every shared library's call to
// malloc binds to the executable's definition first), forwarding to glibc's own implementation.
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void* __libc_valloc(std::size_t);
void* __libc_pvalloc(std::size_t);
void __libc_free(void*);

void* malloc(std::size_t n) {
  note(n);
  return __libc_malloc(n);
}
void* calloc(std::size_t count, std::size_t n) {
  note(count * n);
  return __libc_calloc(count, n);
}
void* realloc(void* p, std::size_t n) {
  note(n);
  return __libc_realloc(p, n);
}
void* reallocarray(void* p, std::size_t count, std::size_t n) {
  std::size_t bytes = 0;
  if (__builtin_mul_overflow(count, n, &bytes)) {
    errno = ENOMEM;
    return nullptr;
  }
  return realloc(p, bytes);
}
void* memalign(std::size_t alignment, std::size_t n) {
  note(n);
  return __libc_memalign(alignment, n);
}
void* aligned_alloc(std::size_t alignment, std::size_t n) { return memalign(alignment, n); }
int posix_memalign(void** out, std::size_t alignment, std::size_t n) {
  if (alignment % sizeof(void*) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
  void* p = memalign(alignment, n);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}
void* valloc(std::size_t n) {
  note(n);
  return __libc_valloc(n);
}
void* pvalloc(std::size_t n) {
  note(n);
  return __libc_pvalloc(n);
}
void free(void* p) { __libc_free(p); }
}  // extern "C"

namespace pliant::test {
const char* allocation_counter_method() { return "malloc replacement"; }
}  // namespace pliant::test

// Every operator new form, on the counted C functions above (counted once there), so that the count
// does not depend on how the standard library implements its own.
namespace {
void* plain_new(std::size_t n) {
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void* aligned_new(std::size_t n, std::align_val_t a) {
  const auto alignment = std::max(static_cast<std::size_t>(a), sizeof(void*));
  void* p = nullptr;
  if (posix_memalign(&p, alignment, n == 0 ? 1 : n) == 0) return p;
  throw std::bad_alloc();
}
}  // namespace

void* operator new(std::size_t n) { return plain_new(n); }
void* operator new[](std::size_t n) { return plain_new(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return std::malloc(n == 0 ? 1 : n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return std::malloc(n == 0 ? 1 : n); }
void* operator new(std::size_t n, std::align_val_t a) { return aligned_new(n, a); }
void* operator new[](std::size_t n, std::align_val_t a) { return aligned_new(n, a); }
void* operator new(std::size_t n, std::align_val_t a, const std::nothrow_t&) noexcept {
  try {
    return aligned_new(n, a);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, std::align_val_t a, const std::nothrow_t& t) noexcept {
  return operator new(n, a, t);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
#endif

namespace pliant::test {
void count_allocations(bool on) {
  if (on) {
    g_allocations = 0;
    g_bytes = 0;
    g_attributed = 0;
  }
  g_counting = on;
}
void attribute_allocations_to(const char* library) { g_library = library; }
long allocations_attributed() { return g_attributed.load(); }
long allocations_counted() { return g_allocations.load(); }
long long bytes_counted() { return g_bytes.load(); }
}  // namespace pliant::test
