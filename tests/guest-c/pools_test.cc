// The zygote's pool filling (guest-c/sandbox/pools.c) against CPython's own
// allocator, in an embedded interpreter: holes made the way the zygote's
// warm-up leaves them, then filled, and every size class's next allocation
// starts a pool of its own.
#include <Python.h>
#include <gtest/gtest.h>

#include <vector>

#include "pools.h"

namespace {

constexpr size_t kSmallMax = 512, kAlignment = 16;

class Interpreter : public ::testing::Environment {
 public:
  void SetUp() override { Py_InitializeEx(0); }
};

// Allocates many blocks of every size class and frees every other one: the
// pools of each class are left with free blocks between live ones.
std::vector<void *> MakeHoles() {
  std::vector<void *> live;
  for (size_t size = kAlignment; size <= kSmallMax; size += kAlignment) {
    std::vector<void *> blocks;
    for (int i = 0; i < 2000; i++) blocks.push_back(PyObject_Malloc(size));
    for (size_t i = 0; i < blocks.size(); i++) {
      if (i % 2 == 0) {
        PyObject_Free(blocks[i]);
      } else {
        live.push_back(blocks[i]);
      }
    }
  }
  return live;
}

// The size classes whose next allocation lands in a pool already in use.
std::vector<size_t> ClassesServedFromUsedPools() {
  std::vector<size_t> used;
  for (size_t size = kAlignment; size <= kSmallMax; size += kAlignment) {
    void *block = PyObject_Malloc(size);
    if (spine_pool_blocks_in_use(block) > 1) used.push_back(size);
    PyObject_Free(block);
  }
  return used;
}

TEST(ZygotePools, WithHolesEveryClassIsServedFromAPoolInUse) {
  std::vector<void *> live = MakeHoles();
  EXPECT_EQ(ClassesServedFromUsedPools().size(), kSmallMax / kAlignment);
  for (void *block : live) PyObject_Free(block);
}

TEST(ZygotePools, AfterFillingEveryClassStartsAFreshPool) {
  std::vector<void *> live = MakeHoles();
  EXPECT_GE(spine_fill_pools(), 1000 * static_cast<int>(kSmallMax / kAlignment));
  EXPECT_EQ(ClassesServedFromUsedPools(), std::vector<size_t>{});
  // The filler blocks stay taken, as in the zygote; the test's own go.
  for (void *block : live) PyObject_Free(block);
}

}  // namespace

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new Interpreter);
  return RUN_ALL_TESTS();
}
