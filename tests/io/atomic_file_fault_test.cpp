// A full disk while a file is written: the write is made to fail by a file-size
// limit (RLIMIT_FSIZE: the kernel refuses to grow the file past it, as a full disk refuses a block),
// with SIGXFSZ ignored so that the failure comes back as an error instead of a signal. The writer
// must return one line naming the file and the reason, leave the previous file byte for byte, and
// leave no temporary behind.
#include "pliant/io/atomic_file.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace pliant::io {
namespace {

namespace fs = std::filesystem;

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Limits the size of files this process writes for one scope (unit: byte), SIGXFSZ ignored.
class ScopedFileSizeLimit {
 public:
  explicit ScopedFileSizeLimit(rlim_t bytes) {
    previous_signal_ = std::signal(SIGXFSZ, SIG_IGN);
    getrlimit(RLIMIT_FSIZE, &saved_);
    rlimit lim = saved_;
    lim.rlim_cur = bytes;
    ok_ = setrlimit(RLIMIT_FSIZE, &lim) == 0;
  }
  ~ScopedFileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, previous_signal_);
  }
  bool ok() const { return ok_; }

 private:
  rlimit saved_{};
  void (*previous_signal_)(int) = nullptr;
  bool ok_ = false;
};

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("pliant_atomic_fault_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

int entries(const fs::path& dir) {
  int n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

TEST(AtomicFileFault, FullDiskKeepsThePreviousFileAndLeavesNoTemporary) {
  const fs::path dir = fresh_dir("bytes");
  const fs::path target = dir / "summary.json";
  const std::string before = "{\"steps\": 100}\n";
  ASSERT_TRUE(write_file_atomically(target, before).ok());

  const std::string big(1 << 20, 'x');  // 1 MiB: far past the limit below
  Status st;
  {
    const ScopedFileSizeLimit limit(64 * 1024);
    ASSERT_TRUE(limit.ok());
    st = write_file_atomically(target, big);
  }
  ASSERT_FALSE(st.ok()) << "a write past the file-size limit must fail";
  EXPECT_NE(st.message().find(target.string()), std::string::npos) << st.message();
  EXPECT_EQ(st.message().find('\n'), std::string::npos) << "one line: " << st.message();
  EXPECT_NE(st.message().find("File too large"), std::string::npos)
      << "the system's reason: " << st.message();
  EXPECT_EQ(read_all(target), before) << "the previous file must stay as it was";
  EXPECT_EQ(entries(dir), 1) << "no temporary left beside the target";

  // Without the limit the same write goes through: the failure above was the fault, nothing else.
  ASSERT_TRUE(write_file_atomically(target, big).ok());
  EXPECT_EQ(read_all(target), big);
  fs::remove_all(dir);
}

// The streaming form: the producer writes in pieces and the failure is met in the middle of them.
TEST(AtomicFileFault, FullDiskWhileStreamingKeepsThePreviousFile) {
  const fs::path dir = fresh_dir("stream");
  const fs::path target = dir / "frame_0001.vtu";
  ASSERT_TRUE(write_file_atomically(target, std::string_view("previous frame")).ok());
  Status st;
  {
    const ScopedFileSizeLimit limit(16 * 1024);
    ASSERT_TRUE(limit.ok());
    st = write_file_atomically(target, [](std::ostream& out) -> Status {
      const std::string piece(4096, 'y');
      for (int i = 0; i < 64; ++i) out << piece;
      return {};
    });
  }
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find(target.string()), std::string::npos) << st.message();
  EXPECT_EQ(read_all(target), "previous frame");
  EXPECT_EQ(entries(dir), 1);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace pliant::io
