// GoogleTest for guest-c: the C API of runtime.c and the _spine call path,
// with a fake host callback standing in for the Go bridge (the real one is
// tested by the Go suite). CPython initialises once per process, so one
// environment sets it up for every test.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "guest_modules.h"
#include "spine_runtime.h"

namespace {

// What the fake host saw and answers. Tests set `answer` per request text.
struct FakeHost {
  std::mutex mu;
  std::vector<std::string> requests;
  std::vector<int> ops;
  std::vector<uintptr_t> tokens;
  std::string big_answer;  // when set, every CALL answers this (to force FETCH)
  std::atomic<int> fetches{0};
  std::atomic<uint64_t> next_handle{1};
};

FakeHost g_host;

std::string AnswerFor(const std::string &request) {
  // Requests are canonical: {"args":{...},"tool":"name"}.
  if (request.find("\"tool\":\"fail\"") != std::string::npos) {
    return R"({"error":"boom"})";
  }
  if (request.find("\"tool\":\"lookup\"") != std::string::npos) {
    return R"({"value":21})";
  }
  return R"({"value":null})";
}

int64_t FakeCallback(uintptr_t token, int op, uint64_t handle, const char *req,
                     size_t len, char *out, size_t cap) {
  std::string request(req, len);
  {
    std::lock_guard<std::mutex> lock(g_host.mu);
    g_host.requests.push_back(request);
    g_host.ops.push_back(op);
    g_host.tokens.push_back(token);
  }
  if (op == SPINE_OP_PREPARE) {
    return static_cast<int64_t>(g_host.next_handle++);
  }
  std::string answer = g_host.big_answer.empty() ? AnswerFor(request) : g_host.big_answer;
  if (op == SPINE_OP_RESOLVE && handle == 0) {
    return -1;  // a broken host: the guest must turn this into a RuntimeError
  }
  if (op == SPINE_OP_FETCH) {
    g_host.fetches++;
  }
  if (answer.size() > cap) {
    return static_cast<int64_t>(answer.size());
  }
  memcpy(out, answer.data(), answer.size());
  return static_cast<int64_t>(answer.size());
}

std::string ReadFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

class RuntimeEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    for (const char *name : {SPINE_GUEST_MODULES}) {
      sources_.push_back(ReadFile(std::string(SPINE_GUEST_DIR) + "/" + name + ".py"));
      names_.push_back(name);
    }
    std::vector<spine_module_source> modules;
    for (size_t i = 0; i < sources_.size(); i++) {
      modules.push_back({names_[i].c_str(), sources_[i].data(), sources_[i].size()});
    }
    spine_config config{FakeCallback, modules.data(), modules.size()};
    // Not an ASSERT: a fatal failure here would only skip every test, and a
    // skipped suite passes under ctest. A runtime that cannot start fails.
    if (spine_init(&config) != 0) {
      fprintf(stderr, "spine_init failed: %s\n", spine_last_error());
      std::abort();
    }
  }

 private:
  std::vector<std::string> sources_;
  std::vector<std::string> names_;
};

struct Outcome {
  std::string response, out, err;
  int interrupted = 0;
};

std::string Request(const std::string &source, const std::string &extra = "") {
  std::string escaped;
  for (char c : source) {
    if (c == '"' || c == '\\') escaped += '\\';
    if (c == '\n') {
      escaped += "\\n";
      continue;
    }
    escaped += c;
  }
  return R"({"source":")" + escaped +
         R"(","inputs":{"item":3},"manifest":[{"name":"lookup"},{"name":"fail"}])" + extra + "}";
}

Outcome Execute(uintptr_t token, const std::string &request) {
  spine_result result;
  int rc = spine_execute(token, request.data(), request.size(), &result);
  EXPECT_EQ(rc, 0) << spine_last_error();
  Outcome outcome;
  if (rc == 0) {
    outcome.response.assign(result.response, result.response_len);
    outcome.out.assign(result.out, result.out_len);
    outcome.err.assign(result.err, result.err_len);
    outcome.interrupted = result.interrupted;
    spine_result_free(&result);
    EXPECT_EQ(result.response, nullptr);
  }
  return outcome;
}

TEST(RuntimeInit, SecondInitFails) {
  spine_config config{FakeCallback, nullptr, 0};
  EXPECT_EQ(spine_init(&config), -1);
  EXPECT_NE(std::string(spine_last_error()), "");
}

TEST(RuntimeExecute, ReturnsResultJson) {
  Outcome o = Execute(1, Request("result = {'x': inputs['item'] * 2}"));
  EXPECT_EQ(o.response, R"({"value":{"x": 6},"transformed":""})");
}

TEST(RuntimeExecute, UnsetResultIsNull) {
  EXPECT_EQ(Execute(2, Request("x = 1")).response, R"({"value":null,"transformed":""})");
}

TEST(RuntimeExecute, StdoutIsASeparateBuffer) {
  Outcome o = Execute(3, Request("print('hello')\nresult = 1"));
  EXPECT_EQ(o.out, "hello\n");
  EXPECT_EQ(o.response, R"({"value":1,"transformed":""})");
}

TEST(RuntimeExecute, ToolCallCrossesWithTokenAndCanonicalRequest) {
  {
    std::lock_guard<std::mutex> lock(g_host.mu);
    g_host.requests.clear();
    g_host.tokens.clear();
  }
  Outcome o = Execute(77, Request("result = lookup(key=inputs['item'])"));
  EXPECT_EQ(o.response, R"({"value":21,"transformed":""})");
  std::lock_guard<std::mutex> lock(g_host.mu);
  ASSERT_EQ(g_host.requests.size(), 1u);
  EXPECT_EQ(g_host.requests[0], R"({"args":{"key":3},"tool":"lookup"})");
  EXPECT_EQ(g_host.tokens[0], 77u);
}

TEST(RuntimeExecute, ToolErrorIsCatchableRuntimeError) {
  Outcome o = Execute(4, Request("try:\n    fail(message='x')\nexcept RuntimeError as e:\n    result = str(e)"));
  EXPECT_EQ(o.response, R"({"value":"boom","transformed":""})");
}

TEST(RuntimeExecute, UncaughtErrorCarriesLine) {
  Outcome o = Execute(5, Request("x = 1\nfail(message='x')"));
  EXPECT_NE(o.response.find(R"("error": "RuntimeError: boom")"), std::string::npos) << o.response;
  EXPECT_NE(o.response.find(R"("line": 2)"), std::string::npos) << o.response;
}

TEST(RuntimeExecute, LargeResponseIsFetched) {
  g_host.big_answer = R"({"value":")" + std::string(200000, 'a') + R"("})";
  int before = g_host.fetches;
  Outcome o = Execute(6, Request("result = len(lookup(key=1))"));
  g_host.big_answer.clear();
  EXPECT_EQ(o.response, R"({"value":200000,"transformed":""})");
  EXPECT_EQ(g_host.fetches, before + 1);
}

TEST(RuntimeExecute, PrepareAndResolveCrossToTheHost) {
  Outcome o = Execute(8, Request("import _spine\nh = _spine.prepare('{\"args\":{},\"tool\":\"lookup\"}')\n"
                             "result = [h > 0, _spine.resolve(h, '{\"args\":{},\"tool\":\"lookup\"}').decode()]"));
  EXPECT_EQ(o.response, R"({"value":[true, "{\"value\":21}"],"transformed":""})");
}

TEST(RuntimeExecute, HostFailureIsRuntimeError) {
  Outcome o = Execute(9, Request("import _spine\ntry:\n    _spine.resolve(0, '{}')\nexcept RuntimeError as e:\n"
                             "    result = str(e)"));
  EXPECT_EQ(o.response, R"({"value":"spine: the host failed to answer a resolve crossing","transformed":""})");
}

// The host wrote the request, so a request the guest cannot read is no
// outcome of the program: the call fails and says why.
TEST(RuntimeExecute, MalformedRequestFails) {
  spine_result result;
  std::string request = "{not json";
  EXPECT_EQ(spine_execute(10, request.data(), request.size(), &result), -1);
  EXPECT_NE(std::string(spine_last_error()).find("malformed request"), std::string::npos)
      << spine_last_error();
  EXPECT_EQ(result.response, nullptr);
}

TEST(RuntimeExecute, ZeroTokenIsRefused) {
  spine_result result;
  EXPECT_EQ(spine_execute(0, "{}", 2, &result), -1);
  EXPECT_NE(std::string(spine_last_error()), "");
}

TEST(RuntimeInterrupt, StopsAnInfiniteLoopEvenIfCaught) {
  std::thread killer([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    while (spine_interrupt(11, SPINE_INTERRUPT_TIMEOUT) != 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  });
  Outcome o = Execute(11, Request("while True:\n    try:\n        while True:\n            pass\n"
                              "    except BaseException:\n        pass"));
  killer.join();
  EXPECT_EQ(o.interrupted, SPINE_INTERRUPT_TIMEOUT);
  EXPECT_NE(o.response.find("Interrupt: execution exceeded its deadline"), std::string::npos) << o.response;
  // The next execution is not affected.
  EXPECT_EQ(Execute(12, Request("result = 5")).response, R"({"value":5,"transformed":""})");
}

TEST(RuntimeInterrupt, StaleTokenIsRefused) {
  EXPECT_EQ(spine_interrupt(11, SPINE_INTERRUPT_TIMEOUT), -1);
  EXPECT_EQ(spine_interrupt(0, SPINE_INTERRUPT_TIMEOUT), -1);
}

TEST(RuntimeEntry, UnknownEntryFails) {
  EXPECT_EQ(spine_call_entry(13, "no_such_entry", "", 0), -1);
  EXPECT_NE(std::string(spine_last_error()).find("no_such_entry"), std::string::npos);
}

}  // namespace

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new RuntimeEnvironment);
  return RUN_ALL_TESTS();
}
