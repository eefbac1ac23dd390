// The zygote's arenas in huge pages (guest-c/sandbox/arenas.c) under
// CPython's own small-object allocator, in an embedded interpreter: arenas
// come from 2 MiB-aligned chunks advised for huge pages, an arena freed in
// the zygote is taken again before a chunk grows, and a forked child maps
// its own arenas plainly.
#include <Python.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "arenas.h"

namespace {

class Interpreter : public ::testing::Environment {
 public:
  void SetUp() override {
    spine_arenas_use_huge_chunks();
    Py_InitializeEx(0);
  }
};

// Enough 512-byte blocks to fill several 1 MiB arenas.
std::vector<void *> AllocateArenas(int arenas) {
  std::vector<void *> blocks;
  for (int i = 0; i < arenas * 2048; i++) blocks.push_back(PyObject_Malloc(512));
  return blocks;
}

void FreeAll(std::vector<void *> &blocks) {
  for (void *block : blocks) PyObject_Free(block);
  blocks.clear();
}

// The VmFlags line of the mapping of /proc/self/smaps that holds `p`.
std::string VmFlagsOf(const void *p) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  auto address = reinterpret_cast<uintptr_t>(p);
  while (std::getline(smaps, line)) {
    uintptr_t start = 0, end = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> start >> dash >> end && dash == '-') {
      inside = address >= start && address < end;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

TEST(ZygoteArenas, NewArenasComeFromChunksAdvisedForHugePages) {
  std::vector<void *> blocks = AllocateArenas(4);
  void *last = blocks.back();
  EXPECT_TRUE(spine_arenas_in_chunk(last));
  EXPECT_NE(VmFlagsOf(last).find(" hg"), std::string::npos) << VmFlagsOf(last);
  EXPECT_GE(spine_arenas_chunk_count(), 2);
  FreeAll(blocks);
}

TEST(ZygoteArenas, AnArenaFreedInTheZygoteIsTakenAgainBeforeAChunkGrows) {
  std::vector<void *> blocks = AllocateArenas(3);
  int chunks = spine_arenas_chunk_count();
  FreeAll(blocks);  // pymalloc frees the arenas that empty
  blocks = AllocateArenas(3);
  EXPECT_EQ(spine_arenas_chunk_count(), chunks);
  EXPECT_TRUE(spine_arenas_in_chunk(blocks.back()));
  FreeAll(blocks);
}

TEST(ZygoteArenas, AChildMapsItsOwnArenasOutsideTheChunks) {
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    spine_arenas_after_fork();
    int chunks = spine_arenas_chunk_count();
    std::vector<void *> blocks = AllocateArenas(3);
    // 1: a new arena in a chunk; 2: a chunk made; 0: as it should be.
    _exit(spine_arenas_in_chunk(blocks.back()) ? 1 : spine_arenas_chunk_count() != chunks ? 2 : 0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: the child's arena came from a chunk; 2: the child made a chunk";
}

}  // namespace

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new Interpreter);
  return RUN_ALL_TESTS();
}
