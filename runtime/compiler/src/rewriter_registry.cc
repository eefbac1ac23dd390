// `rewriter.BuildFunction` / `rewriter.BuildFunctions`: the code generation entry points;
// `rewriter.IsExported`: whether a function gets a `name__c_api` wrapper.
#include "spine/compiler/rewriter.h"
#include "spine/runtime/registry.h"
#include "spine/runtime/tuple.h"

namespace spine::compiler {
namespace {

rt::Array<PrimFunc> FunctionsOf(const rt::McValue& v) {
  rt::Array<PrimFunc> out;
  if (const auto* m = v.ObjectPtr() && v.ObjectPtr()->IsType<IRModuleNode>()
                          ? static_cast<const IRModuleNode*>(v.ObjectPtr())
                          : nullptr) {
    for (const BaseFunc& f : m->functions) out.push_back(f.AsRef<PrimFunc>());
    return out;
  }
  auto add = [&](const rt::Any& e) {
    if (!e.Is<PrimFunc>()) rt::ThrowTypeError("rewriter.BuildFunctions: expected PrimFunc elements, got " + e.TypeName());
    out.push_back(e.As<PrimFunc>());
  };
  if (v.type_index() == rt::TypeIndex::RuntimeList) {
    for (const rt::McValue& e : v.As<rt::List>()) add(e);
  } else if (v.type_index() == rt::TypeIndex::RuntimeTuple) {
    for (const rt::McValue& e : v.As<rt::Tuple>()) add(e);
  } else if (v.type_index() == rt::TypeIndex::RuntimeArray) {
    for (const rt::object_r& e : static_cast<const rt::ArrayNode*>(v.ObjectPtr())->data) add(rt::McValue(e));
  } else {
    rt::ThrowTypeError("rewriter.BuildFunctions: expected a list of PrimFunc or an IRModule, got " + v.TypeName());
  }
  return out;
}

REGISTER_GLOBAL("rewriter.BuildFunction").Params({rt::Arg("function")}).SetBody([](PrimFunc f) {
  return SourceRewriter::Build(rt::Array<PrimFunc>{f});
});
REGISTER_GLOBAL("rewriter.BuildFunctions").Params({rt::Arg("functions")}).SetBody([](rt::McValue fns) {
  return SourceRewriter::Build(FunctionsOf(fns));
});
REGISTER_GLOBAL("rewriter.IsExported").Params({rt::Arg("function")}).SetBody([](PrimFunc f) {
  return SourceRewriter::IsExported(f);
});

}  // namespace
}  // namespace spine::compiler
