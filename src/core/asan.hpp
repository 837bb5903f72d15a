// PLIANT_ASAN is defined when this translation unit is built with AddressSanitizer, by g++
// (__SANITIZE_ADDRESS__) or by clang (__has_feature(address_sanitizer)): code that replaces the
// allocator or registers LeakSanitizer suppressions must know, whichever compiler the sanitizer
// build uses. Private to the project (not installed).
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define PLIANT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PLIANT_ASAN 1
#endif
#endif
