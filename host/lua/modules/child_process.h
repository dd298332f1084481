// Running a program for a script (tf.exec): from an argument list, never through a shell unless
// the caller builds one, with the environment it is given and nothing else, in a process group
// (POSIX) or job object (Windows) of its own so that ending it ends its children too. No Lua
// here: the module behind tf.exec (exec_module.cpp) reads a script's options into a Command.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace luaform::lua::process {

using Clock = std::chrono::steady_clock;

struct Command {
  // The program (a path, or a name looked up on `search_path`) and its arguments.
  std::vector<std::string> arguments;
  // NAME=VALUE entries: the program's whole environment.
  std::vector<std::string> environment;
  // The directories a program name without a separator is looked for in (PATH's syntax).
  std::string search_path;
  std::string directory;  // empty: the host's
  std::string input;      // written to standard input, which is then closed
  // Bytes of standard output and error together past which the program is ended and run fails.
  size_t max_output = 0;
};

struct Outcome {
  // The exit status, or -1 when a signal ended the program (POSIX).
  int status = -1;
  int signal = 0;
  std::string output;  // standard output
  std::string errors;  // standard error
};

// What may end a run early. `reason` is asked every few milliseconds while the program runs;
// once it returns a message the program and its children are ended and run throws that
// message. Past `deadline` they are ended too and run throws `deadline_message`.
struct Watch {
  std::function<std::optional<std::string>()> reason;
  std::optional<Clock::time_point> deadline;
  std::string deadline_message;
};

// The program could not be started, was ended by the watch, or wrote more than max_output. The
// message says which, naming the program.
class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The path of `program` as run would start it: itself when it holds a directory separator,
// else the first executable file of that name in `search_path`'s directories; nullopt when
// there is none.
std::optional<std::string> find_program(const std::string& program, const std::string& search_path);

// Starts the program, feeds it `input`, collects its output and waits for it. Once the program
// has exited, output still held open by a child it left running is read for at most a moment
// more; that child is left alone (a daemon the program started is the program's business).
Outcome run(const Command& command, const Watch& watch);

// The search path separator of the platform (':' or ';').
char path_list_separator();

namespace detail {
// Defined by each platform's file (child_process_posix.cpp, child_process_windows.cpp):
// whether `program` names a path rather than a name to look up, the file run would start for
// `path` (Windows adds .exe or .com), and the separator of directories in a path.
bool names_a_path(const std::string& program);
std::optional<std::string> runnable(const std::string& path);
char directory_separator();
// The path run starts for command.arguments[0]; throws RunError saying why there is none
// (child_process.cpp).
std::string program_path(const Command& command);
}  // namespace detail

}  // namespace luaform::lua::process
