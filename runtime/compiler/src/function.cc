// PrimFunc and IRModule constructors.
#include "spine/compiler/function.h"

#include "spine/runtime/error.h"

namespace spine::compiler {

namespace {
bool IsIdentifier(const std::string& s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}
}  // namespace

PrimFunc PrimFunc::Make(std::string name, rt::Array<PrimVar> params, rt::Array<PrimExpr> defaults, Stmt body,
                        Type ret_type) {
  // Names become C symbols (name__c_api), so only ASCII identifiers are
  // allowed; a method is `Class.method` and takes the instance first.
  size_t dot = name.find('.');
  if (dot == std::string::npos ? !IsIdentifier(name)
                               : !IsIdentifier(name.substr(0, dot)) || !IsIdentifier(name.substr(dot + 1))) {
    rt::ThrowValueError("PrimFunc: '" + name + "' is not an ASCII identifier (or Class.method)");
  }
  if (dot != std::string::npos) {
    const ClassTypeNode* c = params.size() ? params[0].type().As<ClassTypeNode>() : nullptr;
    if (!c || c->name != name.substr(0, dot)) rt::ThrowTypeError("PrimFunc: method '" + name + "' must take its instance first");
  }
  if (!body.defined()) rt::ThrowTypeError("PrimFunc: undefined body");
  if (!ret_type.defined() || !ret_type.As<TypeNode>() || ret_type.As<IteratorTypeNode>()) {
    rt::ThrowTypeError("PrimFunc: the return type must be a value type or None");
  }
  if (defaults.size() > params.size()) rt::ThrowValueError("PrimFunc: more defaults than parameters");
  auto n = rt::MakeObject<PrimFuncNode>();
  n->name = std::move(name);
  n->params = std::move(params);
  n->defaults = std::move(defaults);
  n->body = std::move(body);
  n->ret_type = std::move(ret_type);
  return PrimFunc(rt::object_p<rt::object_t>(n));
}

bool PrimFunc::IsMethod() const { return (*this)->name.find('.') != std::string::npos; }

IRModule IRModule::Make() { return IRModule(rt::object_p<rt::object_t>(rt::MakeObject<IRModuleNode>())); }

GlobalVar IRModule::Add(const PrimFunc& fn) const {
  if (Lookup(fn->name).defined()) rt::ThrowValueError("IRModule: function '" + fn->name + "' is already defined");
  auto* n = static_cast<IRModuleNode*>(get());
  GlobalVar g = GlobalVar::Make(fn->name);
  n->globals.push_back(g);
  n->functions.push_back(fn);
  return g;
}

PrimFunc IRModule::Lookup(const std::string& name) const {
  const auto* n = static_cast<const IRModuleNode*>(get());
  for (const BaseFunc& f : n->functions) {
    if (const auto* p = f.As<PrimFuncNode>(); p && p->name == name) return f.AsRef<PrimFunc>();
  }
  return PrimFunc();
}

}  // namespace spine::compiler
