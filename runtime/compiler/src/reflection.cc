// `runtime.NodeGetAttrNames` / `runtime.NodeGetAttr`: field reflection built
// on VisitAttrs. Nodes choose which fields they expose.
#include <vector>

#include "spine/compiler/node.h"
#include "spine/runtime/array.h"
#include "spine/runtime/list.h"
#include "spine/runtime/registry.h"

namespace spine::compiler {
namespace {

class NameCollector : public AttrVisitor {
 public:
  std::vector<std::string> names;
  void Visit(const char* k, int64_t*) override { names.emplace_back(k); }
  void Visit(const char* k, double*) override { names.emplace_back(k); }
  void Visit(const char* k, std::string*) override { names.emplace_back(k); }
  void Visit(const char* k, rt::DataType*) override { names.emplace_back(k); }
  void Visit(const char* k, rt::object_r*) override { names.emplace_back(k); }
};

class Getter : public AttrVisitor {
 public:
  explicit Getter(std::string key) : key(std::move(key)) {}
  std::string key;
  bool found = false;
  rt::McValue value;
  void Visit(const char* k, int64_t* v) override { Take(k, rt::McValue(*v)); }
  void Visit(const char* k, double* v) override { Take(k, rt::McValue(*v)); }
  void Visit(const char* k, std::string* v) override { Take(k, rt::McValue(*v)); }
  // Data types cross to Python as their text form ("int64"), which is what the constructors take.
  void Visit(const char* k, rt::DataType* v) override { Take(k, rt::McValue(v->ToString())); }
  // Arrays (a tuple type's fields, a function's params) cross as lists: a runtime
  // Array has no Python binding, and callers iterate these fields.
  void Visit(const char* k, rt::object_r* v) override {
    const rt::ArrayNode* array = v->As<rt::ArrayNode>();
    if (array == nullptr) {
      Take(k, rt::McValue(*v));
      return;
    }
    rt::List items;
    for (const rt::object_r& e : array->data) items.append(rt::McValue(e));
    Take(k, rt::McValue(items));
  }

 private:
  void Take(const char* k, rt::McValue v) {
    if (!found && key == k) {
      found = true;
      value = std::move(v);
    }
  }
};

AstNode* NodeOrThrow(const rt::McValue& v) {
  rt::object_t* o = v.ObjectPtr();
  if (o == nullptr || !o->IsType<AstNode>()) rt::ThrowTypeError("expected an AST node, got " + v.TypeName());
  return static_cast<AstNode*>(o);
}

REGISTER_GLOBAL("runtime.NodeGetAttrNames").Params({rt::Arg("node")}).SetBody([](rt::McValue n) {
  NameCollector c;
  NodeOrThrow(n)->VisitAttrs(&c);
  rt::List out;
  for (const std::string& s : c.names) out.append(rt::McValue(s));
  return out;
});

REGISTER_GLOBAL("runtime.NodeGetAttr").Params({rt::Arg("node"), rt::Arg("name")}).SetBody(
    [](rt::McValue n, std::string name) {
      AstNode* node = NodeOrThrow(n);
      Getter g(name);
      node->VisitAttrs(&g);
      if (!g.found) rt::ThrowKeyError("'" + node->Name() + "' has no attribute '" + name + "'");
      return std::move(g.value);
    });

}  // namespace
}  // namespace spine::compiler
