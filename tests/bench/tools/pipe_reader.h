// Reads a pipe on its own thread, handing each chunk to a sink, so that the process writing
// into it never blocks on a full pipe (a blocked provider would measure as a slow one).
#pragma once

#include <atomic>
#include <functional>
#include <string_view>
#include <thread>

namespace luaform::bench {

class PipeReader {
 public:
  // Takes ownership of `fd`. `sink` is called on the reader thread.
  PipeReader(int fd, std::function<void(std::string_view)> sink);
  ~PipeReader();  // finish(), then closes the pipe
  PipeReader(const PipeReader&) = delete;
  PipeReader& operator=(const PipeReader&) = delete;

  // Returns once the pipe is at end of file, or once nothing more arrives for a moment:
  // a child of the writer may hold the pipe open forever.
  void finish();

 private:
  void run();
  int fd_;
  std::function<void(std::string_view)> sink_;
  std::atomic<bool> finishing_{false};
  std::thread thread_;
};

}  // namespace luaform::bench
