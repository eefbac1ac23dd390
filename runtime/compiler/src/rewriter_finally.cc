// Rewriter: return, break and continue, and try ... finally, whose final runs
// on every way out of its body: a fault, the body's end, or a jump.
#include <sstream>

#include "spine/compiler/rewriter.h"

namespace spine::compiler {

namespace {

// The jumps a finally body can be left by (FinallyExit::pending, bits of FinallyExit::used).
enum FinallyJump { kReturn = 1, kBreak = 2, kContinue = 3 };

}  // namespace

void Rewriter::Leave(int jump, const std::string& value, std::ostream& os) {
  Line(os);
  bool loop_jump = jump != kReturn;
  if (finally_.empty() || (loop_jump && finally_.back().loop_depth != loop_depth_)) {
    // Nothing to run on the way: the C++ jump itself (a loop inside the finally body
    // keeps its own break and continue).
    os << (jump == kReturn ? (value.empty() ? "return;\n" : "return " + value + ";\n")
                           : jump == kBreak ? "break;\n" : "continue;\n");
    return;
  }
  // CPython runs final first: the value is computed now, the jump waits for final's end
  // (and a return, break or continue in final replaces it).
  FinallyExit& exit = finally_.back();
  exit.used |= 1 << jump;
  os << "{ ";
  if (!value.empty()) os << exit.value << " = " << value << "; ";
  os << exit.pending << " = " << jump << "; goto " << exit.label << "; }\n";
}

void Rewriter::VisitStmt_(const ReturnStmtNode* n, std::ostream& os) {
  PrimExpr v = n->value.defined() ? n->value.AsRef<PrimExpr>() : PrimExpr();
  // The declared type is what the caller gets; CPython would return the value unconverted.
  Type got = v.defined() ? v.type() : Type(NoneType::Make());
  if (!TypeEqual(got, ret_type_)) {
    rt::ThrowTypeError("return of " + TypeText(got) + " from a function declared " + TypeText(ret_type_));
  }
  Leave(kReturn, v.defined() ? Render(v) : std::string(), os);
}

void Rewriter::VisitStmt_(const BreakStmtNode*, std::ostream& os) {
  if (loop_depth_ == 0) rt::ThrowValueError("'break' outside loop");
  Leave(kBreak, "", os);
}

void Rewriter::VisitStmt_(const ContinueStmtNode*, std::ostream& os) {
  if (loop_depth_ == 0) rt::ThrowValueError("'continue' outside loop");
  Leave(kContinue, "", os);
}

void Rewriter::VisitStmt_(const FinallyStmtNode* n, std::ostream& os) {
  // final is emitted once: a fault (FALLBACK aside) is kept, final runs, then
  // the kept fault goes on unwinding. A jump out of the body is kept the same
  // way (Leave); one out of final itself drops what was kept, as in CPython.
  std::string kept = Temp(), faulted = Temp(), fault = Temp(), parked = Temp();
  finally_.push_back(FinallyExit{Temp(), Temp(), Temp(), loop_depth_, 0});
  std::ostringstream body;  // first: the jumps it takes decide what is declared
  Block(n->body, body);
  FinallyExit exit = finally_.back();
  finally_.pop_back();
  Line(os);
  os << "{\n";
  Line(os);
  os << "spine_cg::Fault " << kept << ";\n";
  Line(os);
  os << "spine_cg::Box " << parked << ";\n";
  Line(os);
  os << "bool " << faulted << " = false;\n";
  bool returns_value = !ret_type_.As<NoneTypeNode>();
  if (exit.used) {
    Line(os);
    os << "int " << exit.pending << " = 0;\n";
  }
  if ((exit.used >> kReturn) & 1 && returns_value) {
    Line(os);
    os << CType(ret_type_) << " " << exit.value << "{};\n";
  }
  Line(os);
  os << "try" << body.str() << " catch (const spine_cg::Fault& " << fault << ") {\n";
  Line(os);
  os << "if (" << fault << ".kind == SPINE_FAULT_FALLBACK) throw;\n";
  Line(os);
  // A boxed operation's exception is taken out of the interpreter while final runs (its own
  // boxed operations need none pending), and set again before unwinding goes on.
  os << parked << " = spine_cg::ParkedObject(" << fault << ");\n";
  Line(os);
  os << kept << " = " << fault << ";\n";
  Line(os);
  os << faulted << " = true;\n";
  Line(os);
  os << "}\n";
  if (exit.used) {
    Line(os);
    os << exit.label << ":;\n";
  }
  Line(os);
  os << "{\n";
  Line(os);
  os << "spine_cg::Handling " << parked << "_handling;\n";
  Line(os);
  os << parked << "_handling.Enter(" << parked << ");\n";
  VisitStmt(n->final, os);
  Line(os);
  os << "if (" << faulted << ") spine_cg::Rethrow(" << kept << ", " << parked << ");\n";
  Line(os);
  os << "}\n";
  for (int jump : {kReturn, kBreak, kContinue}) {
    if (!((exit.used >> jump) & 1)) continue;
    Line(os);
    os << "if (" << exit.pending << " == " << jump << ")";
    std::ostringstream on;
    ++indent_;
    Leave(jump, jump == kReturn && returns_value ? exit.value : "", on);
    --indent_;
    os << " {\n" << on.str();
    Line(os);
    os << "}\n";
  }
  Line(os);
  os << "}\n";
}

}  // namespace spine::compiler
