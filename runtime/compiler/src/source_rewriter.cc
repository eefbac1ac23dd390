// SourceRewriter: a loadable module around the Rewriter's functions.
#include <algorithm>
#include <cstdio>
#include <sstream>

#include "spine/compiler/rewriter.h"

namespace spine::compiler {

namespace {

// Python's spelling of a type in argument errors (int, list[str], ...).
std::string PyTypeText(const Type& t) {
  std::string s = TypeText(t), out;
  for (size_t i = 0; i < s.size();) {
    if (s.compare(i, 5, "int64") == 0) {
      out += "int", i += 5;
    } else if (s.compare(i, 7, "float64") == 0) {
      out += "float", i += 7;
    } else {
      out += s[i++];
    }
  }
  return out;
}

// Values that can cross the boundary (a set both ways: its table is CPython's, codegen/pyset.h).
bool CanCross(const Type& t, bool result) {
  if (IsScalarType(t) || t.As<StringTypeNode>() || t.As<ObjectTypeNode>()) return true;
  if (t.As<NoneTypeNode>()) return result;  // `-> None`: the wrapper leaves the result None
  if (const auto* l = t.As<ListTypeNode>()) return CanCross(l->item_type, result);
  if (const auto* s = t.As<SetTypeNode>()) return CanCross(s->item_type, result);
  if (const auto* o = t.As<OptionalTypeNode>()) return CanCross(o->item_type, result);
  if (const auto* d = t.As<DictTypeNode>()) return CanCross(d->key_type, result) && CanCross(d->value_type, result);
  if (const auto* u = t.As<TupleTypeNode>()) {
    for (const Type& f : u->fields) {
      if (!CanCross(f, result)) return false;
    }
    return true;
  }
  return false;
}

// Names are ASCII identifiers (PrimFunc::Make), so they need no escaping.
void EmitWrapper(const PrimFunc& f, std::ostream& os) {
  const std::string& name = f->name;
  size_t n = f->params.size();
  os << "int " << name << "__c_api(SpineValue* args, int num_args, SpineValue* ret, void* resource) {\n";
  os << "  spine_cg::ApiScope api_scope(resource);\n";
  os << "  if (num_args != " << n << ") return spine_cg::Report(__mc_module_ctx, SPINE_FAULT_TYPE, \"" << name
     << "() takes exactly " << n << " argument" << (n == 1 ? "" : "s") << "\");\n";
  os << "  try {\n";
  // Exact tags, element by element: an int passed for a float (or a bool
  // for an int) keeps its own type under CPython, so the native version
  // must not accept it (the caller falls back).
  for (size_t i = 0; i < n; ++i) {
    PrimVar p = f->params[static_cast<int64_t>(i)];
    std::string ct = Rewriter::CType(p.type());
    os << "    " << ct << " a" << i << ";\n";
    os << "    if (!spine_cg::Conv<" << ct << ">::From(args[" << i << "], &a" << i
       << ")) return spine_cg::Report(__mc_module_ctx, SPINE_FAULT_TYPE, \"argument '" << p->var_name << "' must be "
       << PyTypeText(p.type()) << "\");\n";
  }
  // One set passed for two parameters is one native set too: `a | b` with a is b copies
  // once, as CPython's set_or does (the set algebra tests identity, codegen/pyset.h).
  for (size_t i = 0; i < n; ++i) {
    const Type& ti = f->params[static_cast<int64_t>(i)].type();
    if (!ti.As<SetTypeNode>()) continue;
    for (size_t j = 0; j < i; ++j) {
      if (Rewriter::CType(f->params[static_cast<int64_t>(j)].type()) != Rewriter::CType(ti)) continue;
      os << "    if (args[" << i << "].u.v_pointer == args[" << j << "].u.v_pointer) a" << i << " = a" << j << ";\n";
    }
  }
  // Parameters changed in place: never the same container as another parameter (native
  // code holds copies, so two names for one object would part; one set for two set
  // parameters of one type is one native set, above), and copied back afterwards.
  std::vector<size_t> back;
  for (size_t i = 0; i < n; ++i) {
    for (const PrimVar& w : f->writeback) {
      if (w.same_as(f->params[static_cast<int64_t>(i)])) back.push_back(i);
    }
  }
  for (size_t i : back) {
    const Type& mine = f->params[static_cast<int64_t>(i)].type();
    for (size_t j = 0; j < n; ++j) {
      const Type& other = f->params[static_cast<int64_t>(j)].type();
      bool container = other.As<ListTypeNode>() || other.As<DictTypeNode>() || other.As<SetTypeNode>();
      bool one_native_set = other.As<SetTypeNode>() && Rewriter::CType(other) == Rewriter::CType(mine);
      if (j == i || !container || one_native_set) continue;
      os << "    if (args[" << i << "].u.v_pointer == args[" << j << "].u.v_pointer) return spine_cg::Report("
         << "__mc_module_ctx, SPINE_FAULT_FALLBACK, \"one container passed twice\");\n";
    }
  }
  bool none = f->ret_type.As<NoneTypeNode>() != nullptr;
  auto is_back = [&](size_t i) { return std::find(back.begin(), back.end(), i) != back.end(); };
  os << "    " << (none ? "" : "auto result = ") << Rewriter::FuncSymbol(name) << "(";
  for (size_t i = 0; i < n; ++i) os << (i ? ", " : "") << (is_back(i) ? "a" : "spine_cg::Move(a") << i << (is_back(i) ? "" : ")");
  os << ");\n";
  for (size_t i : back) {
    os << "    spine_cg::Conv<" << Rewriter::CType(f->params[static_cast<int64_t>(i)].type()) << ">::WriteBack(a" << i
       << ", args[" << i << "]);\n";
  }
  if (!none) os << "    spine_cg::Conv<" << Rewriter::CType(f->ret_type) << ">::To(result, ret);\n";
  os << "    return 0;\n";
  os << "  } catch (const spine_cg::Fault& fault) {\n";
  // A function that changes its arguments cannot be left half way: CPython runs it from
  // the start on the untouched arguments, so its caller sees CPython's changes up to the
  // raise, and the traceback has CPython's frames (guest/native/loader.py re-runs the
  // Python version for every error anyway, which a copied-back change would see twice).
  if (back.empty()) {
    os << "    return spine_cg::Report(__mc_module_ctx, fault);\n";
  } else {
    os << "    return spine_cg::Report(__mc_module_ctx, SPINE_FAULT_FALLBACK, fault.Text());\n";
  }
  os << "  } catch (...) {\n";
  os << "    return spine_cg::Report(__mc_module_ctx, SPINE_FAULT_FALLBACK, \"unexpected C++ exception\");\n";
  os << "  }\n}\n\n";
}

}  // namespace

bool SourceRewriter::IsExported(const PrimFunc& f) {
  if (f.IsMethod() || !CanCross(f->ret_type, true)) return false;
  for (const PrimVar& p : f->params) {
    if (!CanCross(p.type(), false)) return false;
  }
  return true;
}

std::string SourceRewriter::Build(const rt::Array<PrimFunc>& functions) {
  if (functions.size() == 0) rt::ThrowValueError("rewriter: no functions to build");
  std::map<std::string, PrimFunc> by_name;
  std::vector<PrimFunc> exported;
  for (const PrimFunc& f : functions) {
    if (!f.defined()) rt::ThrowTypeError("rewriter: undefined function");
    if (!by_name.emplace(f->name, f).second) rt::ThrowValueError("rewriter: duplicate function '" + f->name + "'");
    if (IsExported(f)) exported.push_back(f);
  }
  // The registry's count byte limits a module to 255 functions.
  if (exported.size() > 255) rt::ThrowValueError("rewriter: at most 255 functions per module");
  Rewriter rw(&by_name);
  std::ostringstream os;
  os << "// Generated by spine rewriter.BuildFunctions; do not edit.\n";
  os << "#include \"spine/compiler/codegen_support.h\"\n\n";
  os << "extern \"C\" {\n__attribute__((visibility(\"default\"))) SpineModuleCtx __mc_module_ctx = "
        "{SPINE_MODULE_ABI_VERSION, 0, nullptr, nullptr};\n}\n\n";
  os << "namespace {\n\n";
  Rewriter::EmitClasses(functions, os);
  for (const PrimFunc& f : functions) os << rw.Prototype(f) << ";\n";
  os << "\n";
  for (const PrimFunc& f : functions) {
    rw.EmitFunction(f, os);
    os << "\n";
  }
  os << "}  // namespace\n\n";
  os << "extern \"C\" {\n\n";
  for (const PrimFunc& f : exported) EmitWrapper(f, os);
  os << "__attribute__((visibility(\"default\"))) SpineBackendFunc __mc_func_array__[] = {\n";
  for (const PrimFunc& f : exported) os << "  " << f->name << "__c_api,\n";
  if (exported.empty()) os << "  nullptr,\n";  // C++ has no empty arrays; the count byte says 0
  os << "};\n\n";
  char count[8];
  std::snprintf(count, sizeof(count), "\\%03o", static_cast<unsigned>(exported.size()));
  os << "__attribute__((visibility(\"default\"))) SpineFuncRegistry __mc_func_registry__ = {\n  \"" << count << "\"";
  for (const PrimFunc& f : exported) os << " \"" << f->name << "\\0\"";
  os << ",\n  __mc_func_array__,\n};\n\n";
  os << "extern \"C\" __attribute__((visibility(\"default\"))) const char __mc_closures_names__[] = \"\\000\";\n\n";
  os << "}  // extern \"C\"\n";
  return os.str();
}

}  // namespace spine::compiler
