// Where each wrapper's real function is: handed to it when a program looks the function up
// (dlsym, cuGetProcAddress, hipGetProcAddress), or found on first call after the interposer in
// the lookup order (a program linked with -lcuda), or in the vendor library already loaded.
#pragma once

#include "interpose/function_names.h"

namespace anygpu::intercept {

using DlsymFunction = void* (*)(void* handle, const char* name);

// Code that may run before a sanitizer runtime has started (dlsym_hook.cpp): ASan's and TSan's
// own start-up looks functions up with dlsym, before an instrumented call could work.
#define ANYGPU_NOT_SANITIZED __attribute__((no_sanitize("address", "undefined", "thread")))

// glibc's dlsym, found with dlvsym (the interposer's own dlsym is dlsym_hook.cpp).
ANYGPU_NOT_SANITIZED DlsymFunction real_dlsym();

// The real function of a wrapper, found now if not known yet; nullptr if there is none.
void* real_function(int id);

// What a program asking for function `id` gets when the driver gave it `real`: the wrapper, its
// real function being `real`; or `real` itself when the wrapper is already bound to another
// copy of the function (a second library of the same API).
void* wrapper_for(int id, void* real);

// A library handle a program found a wrapped function in: searched for the real functions too.
void remember_library(Api api, void* handle);

}  // namespace anygpu::intercept
