#include "spine/runtime/callable.h"

#include <string>

namespace spine::runtime {

Callable Callable::Create(const FunctionSig* sig, CallEntry entry, void* env, EnvDeleter deleter) {
  // From here on the environment is ours: every failure path destroys it
  // exactly once before reporting.
  auto drop = [&] {
    if (deleter) deleter(env);
  };
  if (entry == nullptr) {
    drop();
    ThrowValueError("callable needs an entry");
  }
  if (sig != nullptr && !ValidateSignature(*sig)) {
    drop();
    RethrowLastError();
  }
  object_p<CallableNode> node;
  try {
    node = MakeObject<CallableNode>(sig, entry, env, deleter);
  } catch (...) {
    drop();
    throw;
  }
  return Callable(object_p<object_t>(std::move(node)));
}

namespace {
std::string_view NameOf(const CallableNode* n) noexcept {
  return n->sig && !n->sig->name.empty() ? n->sig->name : std::string_view("<callable>");
}
}  // namespace

std::string_view Callable::name() const noexcept { return NameOf(NodeOf<CallableNode>(*this)); }

bool Callable::Invoke(const CallFrame& frame, CallResult* result) const noexcept {
  return InvokeNode(NodeOf<CallableNode>(*this), frame, result);
}

bool Callable::InvokeNode(const CallableNode* n, const CallFrame& frame, CallResult* result) noexcept {
  if (n == nullptr || result == nullptr) return Fail(ErrorKind::kValueError, "invoke: null callable or result");
  const CallFrame f = frame;                             // (1) private copy of the borrowed frame
  if (!ValidateFrame(n->sig, f)) return false;           // (2) nothing reaches the entry unchecked
  CallResult tmp;                                        // (3) private result: 4 inline slots, no allocation
  bool ok;
  try {
    ok = n->entry(n->env, &f, &tmp);
  } catch (...) {                                        // a throwing entry is a failing entry
    SetLastErrorFromCurrentException();
    ok = false;
  }
  if (!ok) {                                             // (4) drop partial results, add the callee to the chain
    tmp.Unit();
    try {
      WrapLastError((std::string(NameOf(n)) + "(): ").c_str());
    } catch (...) {
    }
    return false;
  }
  if (n->sig && n->sig->return_count != kAnyReturnCount && tmp.size() != n->sig->return_count) {  // (5)
    try {
      std::string m = std::string(NameOf(n)) + "() returned " + std::to_string(tmp.size()) + " results, declared " +
                      std::to_string(n->sig->return_count);
      SetLastError(ErrorKind::kRuntimeError, m.c_str());
    } catch (...) {
      SetLastError(ErrorKind::kRuntimeError, "wrong result count");
    }
    return false;
  }
  result->Move(tmp);                                     // (6) one replacement, only on success
  return true;
}

McValue Callable::Call(const CallFrame& frame) const {
  CallResult r;
  if (!Invoke(frame, &r)) RethrowLastError();
  return r.size() ? r.Take(0) : McValue();
}

}  // namespace spine::runtime
