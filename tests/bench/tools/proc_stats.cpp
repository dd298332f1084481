#include "tests/bench/tools/proc_stats.h"

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace luaform::bench {

namespace {

std::string read_proc_file(pid_t pid, const char* name) {
  const std::string path = "/proc/" + std::to_string(pid) + "/" + name;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A "Name:  1234 kB" line of /proc/PID/status, in KiB.
long status_kib(pid_t pid, const std::string& name) {
  std::istringstream status(read_proc_file(pid, "status"));
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind(name + ":", 0) == 0) return std::stol(line.substr(name.size() + 1));
  }
  throw std::runtime_error("no " + name + " in /proc/" + std::to_string(pid) + "/status");
}

}  // namespace

long peak_rss_kib(pid_t pid) {
  return status_kib(pid, "VmHWM");
}

long current_rss_kib(pid_t pid) {
  return status_kib(pid, "VmRSS");
}

double cpu_seconds(pid_t pid) {
  const std::string stat = read_proc_file(pid, "stat");
  // Field 2, the command name, is in parentheses and may hold spaces or ')'; count fields
  // from after its last ')'. What follows is field 3 (state) onwards.
  const auto close = stat.rfind(')');
  if (close == std::string::npos) throw std::runtime_error("unexpected /proc/PID/stat format");
  std::istringstream fields(stat.substr(close + 1));
  std::string skip;
  for (int field = 3; field <= 13; ++field) fields >> skip;
  unsigned long long utime = 0;
  unsigned long long stime = 0;
  fields >> utime >> stime;  // fields 14 and 15, in clock ticks
  if (!fields) throw std::runtime_error("unexpected /proc/PID/stat format");
  return static_cast<double>(utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

}  // namespace luaform::bench
