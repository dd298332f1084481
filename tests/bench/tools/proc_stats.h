// What Linux tells us about another process: its peak memory and the CPU it has used.
// Reading /proc costs the provider nothing, unlike asking it.
#pragma once

#include <sys/types.h>

namespace luaform::bench {

// Peak resident set size (VmHWM) in KiB; throws std::runtime_error when it cannot be read.
long peak_rss_kib(pid_t pid);
// Resident set size now (VmRSS) in KiB; throws std::runtime_error when it cannot be read.
long current_rss_kib(pid_t pid);

// User plus system CPU time used so far, in seconds; throws when it cannot be read.
double cpu_seconds(pid_t pid);

}  // namespace luaform::bench
