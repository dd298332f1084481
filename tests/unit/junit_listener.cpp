// The results of a unit test binary as JUnit XML, in the file LUAFORM_JUNIT names: the one
// format tests/run.sh reads from every runner (pytest and the fuzz runner write it too). A
// doctest listener, so the console output stays as it is. doctest's own junit reporter counts
// assertions as tests and writes a testcase per subcase, on the console's stream; here each
// TEST_CASE is one testcase, its subcases folded into it, failed when any of them failed.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace {

std::string xml_escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        // XML 1.0 has no place for other control characters, even escaped.
        out += (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') ? '?' : c;
    }
  }
  return out;
}

class JunitListener : public doctest::IReporter {
 public:
  explicit JunitListener(const doctest::ContextOptions& /*options*/) {
    if (const char* path = std::getenv("LUAFORM_JUNIT"); path && *path) path_ = path;
  }

  void report_query(const doctest::QueryData& /*data*/) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats& /*stats*/) override { write(); }

  void test_case_start(const doctest::TestCaseData& data) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    current_ = Case{data.m_file.c_str(), data.m_name, {}, 0, true};
  }
  void test_case_reenter(const doctest::TestCaseData& /*data*/) override {}
  void test_case_end(const doctest::CurrentTestCaseStats& stats) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    current_.seconds = stats.seconds;
    current_.passed = stats.testCaseSuccess;
    cases_.push_back(current_);
  }
  void test_case_exception(const doctest::TestCaseException& e) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    current_.failure +=
        std::string(e.is_crash ? "crashed: " : "threw: ") + e.error_string.c_str() + "\n";
  }
  void subcase_start(const doctest::SubcaseSignature& /*signature*/) override {}
  void subcase_end() override {}
  // Assertions may come from a test's own threads.
  void log_assert(const doctest::AssertData& a) override {
    if (!a.m_failed) return;
    const std::lock_guard<std::mutex> lock(mutex_);
    current_.failure += std::string(a.m_file) + ":" + std::to_string(a.m_line) + ": " + a.m_expr +
                        " (" + a.m_decomp.c_str() + ")\n";
  }
  void log_message(const doctest::MessageData& /*data*/) override {}
  // Left out by the run's filters or ranges: not part of this run.
  void test_case_skipped(const doctest::TestCaseData& /*data*/) override {}

 private:
  struct Case {
    std::string file;
    std::string name;
    std::string failure;
    double seconds = 0;
    bool passed = true;
  };

  // Written whole at the end of the run (a crash ends it through test_run_end too); a run that
  // leaves no file, killed or stopped by a sanitizer, is a failure to its reader.
  void write() {
    if (path_.empty()) return;
    const std::lock_guard<std::mutex> lock(mutex_);
    size_t failures = 0;
    double seconds = 0;
    for (const Case& c : cases_) {
      failures += c.passed ? 0 : 1;
      seconds += c.seconds;
    }
    const std::string partial = path_ + ".part";
    {
      std::ofstream out(partial, std::ios::binary | std::ios::trunc);
      out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
          << "  <testsuite name=\"doctest\" tests=\"" << cases_.size() << "\" failures=\""
          << failures << "\" errors=\"0\" skipped=\"0\" time=\"" << seconds << "\">\n";
      for (const Case& c : cases_) {
        out << "    <testcase classname=\"" << xml_escaped(c.file) << "\" name=\""
            << xml_escaped(c.name) << "\" time=\"" << c.seconds << "\"";
        if (c.passed) {
          out << "/>\n";
        } else {
          out << "><failure message=\"failed\">" << xml_escaped(c.failure)
              << "</failure></testcase>\n";
        }
      }
      out << "  </testsuite>\n</testsuites>\n";
    }
    std::rename(partial.c_str(), path_.c_str());
  }

  std::string path_;
  std::mutex mutex_;
  Case current_;
  std::vector<Case> cases_;
};

}  // namespace

REGISTER_LISTENER("luaform-junit", 1, JunitListener);
