#include "tests/bench/tools/pipe_reader.h"

#include <poll.h>
#include <unistd.h>

#include <cerrno>

namespace luaform::bench {

namespace {

// How long the reader waits for data before it looks whether it should stop.
constexpr int kQuietMs = 100;

}  // namespace

PipeReader::PipeReader(int fd, std::function<void(std::string_view)> sink)
    : fd_(fd), sink_(std::move(sink)), thread_([this] { run(); }) {}

PipeReader::~PipeReader() {
  finish();
  ::close(fd_);
}

void PipeReader::finish() {
  finishing_.store(true);
  if (thread_.joinable()) thread_.join();
}

void PipeReader::run() {
  char buf[4096];
  for (;;) {
    pollfd pfd{fd_, POLLIN, 0};
    const int ready = ::poll(&pfd, 1, kQuietMs);
    if (ready < 0 && errno != EINTR) return;
    if (ready <= 0) {
      // Only a quiet pipe is abandoned, so what was written before finish() is read.
      if (finishing_.load()) return;
      continue;
    }
    const ssize_t n = ::read(fd_, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    sink_(std::string_view(buf, static_cast<size_t>(n)));
  }
}

}  // namespace luaform::bench
