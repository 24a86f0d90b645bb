// A vendor's table of resolved entry points, declared from its function lists
// (X(symbol, name for the versioned lookup, return, parameters)): one PFN_<symbol> member per
// function, and the visit_functions overload through which resolve_functions
// (loaders/symbol_resolver.h) fills it. No include and no anygpu dependency.
#pragma once

#define ANYGPU_FUNCTION_TABLE_MEMBER(symbol, ...) PFN_##symbol symbol = nullptr;
#define ANYGPU_FUNCTION_TABLE_REQUIRED(symbol, name, ...) \
  visit(functions.symbol, #symbol, #name, true);
#define ANYGPU_FUNCTION_TABLE_OPTIONAL(symbol, name, ...) \
  visit(functions.symbol, #symbol, #name, false);

// struct Table with the functions of both lists; visit_functions(Table&, visit) calls
// visit(pointer, symbol, name, required) for each.
#define ANYGPU_FUNCTION_TABLE(Table, REQUIRED, OPTIONAL)  \
  struct Table {                                          \
    REQUIRED(ANYGPU_FUNCTION_TABLE_MEMBER)                \
    OPTIONAL(ANYGPU_FUNCTION_TABLE_MEMBER)                \
  };                                                      \
  template <typename Visit>                               \
  void visit_functions(Table& functions, Visit&& visit) { \
    REQUIRED(ANYGPU_FUNCTION_TABLE_REQUIRED)              \
    OPTIONAL(ANYGPU_FUNCTION_TABLE_OPTIONAL)              \
  }
