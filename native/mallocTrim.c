// Node-API module with one function, trim(): glibc's malloc_trim(0), which hands the free pages
// of every malloc arena back to the kernel. glibc's free() only ever returns the top of the main
// arena; the pages freed in the middle of an arena, or in the arenas of Node's and V8's worker
// threads, stay resident. For the apiserver they were a third of the RSS a burst of requests
// left behind (docs/perf/README.md, 2026-11-29). Built by `make build` when a C compiler is
// there (Makefile `native`); cmd/freedMemory.ts loads it and calls trim() after full GCs.
//
// The few Node-API declarations are written out here (Node-API is a stable C ABI that node
// exports), so building needs a C compiler and glibc's headers, not node's.
#include <malloc.h>
#include <stddef.h>

typedef struct napi_env__ *napi_env;
typedef struct napi_value__ *napi_value;
typedef struct napi_callback_info__ *napi_callback_info;
typedef int napi_status;
typedef napi_value (*napi_callback)(napi_env env, napi_callback_info info);

extern napi_status napi_create_function(napi_env env, const char *utf8name, size_t length, napi_callback cb, void *data, napi_value *result);
extern napi_status napi_set_named_property(napi_env env, napi_value object, const char *utf8name, napi_value value);
extern napi_status napi_get_boolean(napi_env env, _Bool value, napi_value *result);

// trim() → true when memory was given back to the kernel.
static napi_value trim(napi_env env, napi_callback_info info) {
  (void)info;
  napi_value result = NULL;
  napi_get_boolean(env, malloc_trim(0) != 0, &result);
  return result;
}

napi_value napi_register_module_v1(napi_env env, napi_value exports) {
  napi_value fn = NULL;
  if (napi_create_function(env, "trim", 4, trim, NULL, &fn) == 0) napi_set_named_property(env, exports, "trim", fn);
  return exports;
}

int node_api_module_get_api_version_v1(void) { return 8; }
