// Windows: CreateProcessW started suspended inside a job object that kills what it holds when
// closed, so that ending the job ends the program's children too, and the host's death ends
// them all. Pipes are read and written by threads of their own (anonymous pipes cannot be
// polled). Unlike POSIX, a child the program leaves running is ended when run returns: the job
// goes with the run.
#include <windows.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "host/lua/modules/child_process.h"
#include "host/platform/windows_error.h"

namespace luaform::lua::process {
namespace {

using std::chrono::milliseconds;

constexpr milliseconds kPollSlice{20};
constexpr milliseconds kDrainAfterExit{500};
constexpr DWORD kChunk = 64 * 1024;

std::wstring wide(const std::string& text) {
  if (text.empty()) return {};
  const int size =
      ::MultiByteToWideChar(CP_UTF8, 0, text.data(), static_cast<int>(text.size()), nullptr, 0);
  std::wstring out(static_cast<size_t>(size), L'\0');
  ::MultiByteToWideChar(CP_UTF8, 0, text.data(), static_cast<int>(text.size()), out.data(), size);
  return out;
}

class Handle {
 public:
  Handle() = default;
  explicit Handle(HANDLE handle) : handle_(handle) {}
  ~Handle() { reset(); }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  HANDLE get() const { return handle_; }
  void reset(HANDLE handle = nullptr) {
    if (handle_ != nullptr && handle_ != INVALID_HANDLE_VALUE) ::CloseHandle(handle_);
    handle_ = handle;
  }

 private:
  HANDLE handle_ = nullptr;
};

// A pipe whose `child` end the program inherits and whose `parent` end it does not.
struct Pipe {
  Handle parent;
  Handle child;
};

void make_pipe(Pipe& pipe, bool child_reads) {
  SECURITY_ATTRIBUTES inherit{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
  HANDLE read_end = nullptr;
  HANDLE write_end = nullptr;
  if (!::CreatePipe(&read_end, &write_end, &inherit, 0)) {
    throw RunError("cannot make a pipe: " + platform::windows_error_text(::GetLastError()));
  }
  pipe.parent.reset(child_reads ? write_end : read_end);
  pipe.child.reset(child_reads ? read_end : write_end);
  ::SetHandleInformation(pipe.parent.get(), HANDLE_FLAG_INHERIT, 0);
}

// One argument as the C runtime's parser reads it back (CommandLineToArgvW's rules).
void append_quoted(std::wstring& line, const std::wstring& argument) {
  if (!line.empty()) line += L' ';
  if (!argument.empty() && argument.find_first_of(L" \t\n\v\"") == std::wstring::npos) {
    line += argument;
    return;
  }
  line += L'"';
  size_t backslashes = 0;
  for (const wchar_t c : argument) {
    if (c == L'\\') {
      ++backslashes;
      continue;
    }
    if (c == L'"') {
      line.append(backslashes * 2 + 1, L'\\');
    } else {
      line.append(backslashes, L'\\');
    }
    backslashes = 0;
    line += c;
  }
  line.append(backslashes * 2, L'\\');
  line += L'"';
}

bool is_file(const std::string& path) {
  const DWORD attributes = ::GetFileAttributesW(wide(path).c_str());
  return attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_DIRECTORY) == 0;
}

// `path`, or `path` with .exe or .com when it names no file and has no extension of its own.
std::optional<std::string> with_extension(const std::string& path) {
  if (is_file(path)) return path;
  const size_t name = path.find_last_of("\\/");
  if (path.find('.', name == std::string::npos ? 0 : name) != std::string::npos) {
    return std::nullopt;
  }
  for (const char* extension : {".exe", ".com"}) {
    if (is_file(path + extension)) return path + extension;
  }
  return std::nullopt;
}

// What the reading threads share with the loop.
struct Collected {
  std::mutex mutex;
  std::string output;
  std::string errors;
  std::atomic<int> open_streams{2};
  std::atomic<bool> too_much{false};
};

void read_stream(HANDLE pipe, std::string Collected::*into, Collected& collected,
                 size_t max_output) {
  std::vector<char> buffer(kChunk);
  DWORD got = 0;
  while (::ReadFile(pipe, buffer.data(), kChunk, &got, nullptr) && got > 0) {
    std::lock_guard<std::mutex> lock(collected.mutex);
    (collected.*into).append(buffer.data(), got);
    if (max_output > 0 && collected.output.size() + collected.errors.size() > max_output) {
      collected.too_much = true;
      break;
    }
  }
  --collected.open_streams;
}

void write_input(HANDLE pipe, const std::string& input) {
  size_t written = 0;
  while (written < input.size()) {
    const DWORD size = static_cast<DWORD>(std::min<size_t>(kChunk, input.size() - written));
    DWORD done = 0;
    if (!::WriteFile(pipe, input.data() + written, size, &done, nullptr)) break;
    written += done;
  }
}

}  // namespace

char path_list_separator() {
  return ';';
}

namespace detail {

bool names_a_path(const std::string& program) {
  return program.find_first_of("\\/:") != std::string::npos;
}

std::optional<std::string> runnable(const std::string& path) {
  return with_extension(path);
}

char directory_separator() {
  return '\\';
}

}  // namespace detail

Outcome run(const Command& command, const Watch& watch) {
  const std::string path = detail::program_path(command);
  const std::string& name = command.arguments[0];
  std::wstring line;
  for (const std::string& argument : command.arguments) append_quoted(line, wide(argument));
  // The environment block: NAME=VALUE strings, sorted as Windows expects, ending in two NULs.
  std::vector<std::wstring> variables;
  for (const std::string& entry : command.environment) variables.push_back(wide(entry));
  std::sort(variables.begin(), variables.end());
  std::wstring environment;
  for (const std::wstring& variable : variables) environment += variable + L'\0';
  environment += L'\0';
  if (variables.empty()) environment += L'\0';

  Pipe input, output, errors;
  make_pipe(input, true);
  make_pipe(output, false);
  make_pipe(errors, false);

  Handle job(::CreateJobObjectW(nullptr, nullptr));
  if (job.get() == nullptr) {
    throw RunError("cannot make a job object: " + platform::windows_error_text(::GetLastError()));
  }
  JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits{};
  limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
  ::SetInformationJobObject(job.get(), JobObjectExtendedLimitInformation, &limits, sizeof limits);

  STARTUPINFOW startup{};
  startup.cb = sizeof startup;
  startup.dwFlags = STARTF_USESTDHANDLES;
  startup.hStdInput = input.child.get();
  startup.hStdOutput = output.child.get();
  startup.hStdError = errors.child.get();
  PROCESS_INFORMATION started{};
  const std::wstring application = wide(path);
  const std::wstring directory = wide(command.directory);
  if (!::CreateProcessW(application.c_str(), line.data(), nullptr, nullptr, TRUE,
                        CREATE_SUSPENDED | CREATE_UNICODE_ENVIRONMENT | CREATE_NO_WINDOW,
                        environment.data(), directory.empty() ? nullptr : directory.c_str(),
                        &startup, &started)) {
    const DWORD error = ::GetLastError();
    if (!directory.empty() && (error == ERROR_DIRECTORY || error == ERROR_PATH_NOT_FOUND)) {
      throw RunError("cannot run " + name + " in " + command.directory + ": " +
                     platform::windows_error_text(error));
    }
    throw RunError("cannot run " + path + ": " + platform::windows_error_text(error));
  }
  Handle process(started.hProcess);
  Handle thread(started.hThread);
  ::AssignProcessToJobObject(job.get(), process.get());
  ::ResumeThread(thread.get());
  input.child.reset();
  output.child.reset();
  errors.child.reset();

  Collected collected;
  if (command.input.empty()) input.parent.reset();
  std::thread writer;
  if (input.parent.get() != nullptr) {
    writer = std::thread(write_input, input.parent.get(), std::cref(command.input));
  }
  std::thread output_reader(read_stream, output.parent.get(), &Collected::output,
                            std::ref(collected), command.max_output);
  std::thread errors_reader(read_stream, errors.parent.get(), &Collected::errors,
                            std::ref(collected), command.max_output);
  // Ending the job ends every writer of the pipes, so the threads see their ends and return.
  const auto finish = [&] {
    ::TerminateJobObject(job.get(), 1);
    ::WaitForSingleObject(process.get(), INFINITE);
    if (writer.joinable()) writer.join();
    output_reader.join();
    errors_reader.join();
  };

  std::optional<Clock::time_point> exited_at;
  std::string failure;
  for (;;) {
    if (collected.too_much) {
      failure = name + " wrote more than " + std::to_string(command.max_output) +
                " bytes to its standard output and error; it was ended";
      break;
    }
    if (!exited_at && ::WaitForSingleObject(
                          process.get(), static_cast<DWORD>(kPollSlice.count())) == WAIT_OBJECT_0) {
      exited_at = Clock::now();
    }
    if (exited_at) {
      if (collected.open_streams == 0 || Clock::now() - *exited_at >= kDrainAfterExit) break;
      std::this_thread::sleep_for(milliseconds(5));
    }
    if (watch.reason) {
      if (std::optional<std::string> why = watch.reason()) {
        failure = *why;
        break;
      }
    }
    if (watch.deadline && Clock::now() >= *watch.deadline) {
      failure = watch.deadline_message;
      break;
    }
  }
  finish();
  if (!failure.empty()) throw RunError(failure);
  Outcome outcome;
  DWORD code = 0;
  ::GetExitCodeProcess(process.get(), &code);
  outcome.status = static_cast<int>(code);
  std::lock_guard<std::mutex> lock(collected.mutex);
  outcome.output = std::move(collected.output);
  outcome.errors = std::move(collected.errors);
  return outcome;
}

}  // namespace luaform::lua::process
