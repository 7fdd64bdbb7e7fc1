/* prom_mhd: libmicrohttpd loaded when a server starts (see prom_mhd.h). */
#include "config.h"
#include "prom_mhd.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

static struct prom_mhd mhd;
static bool loaded;

#define MHD_LOAD(lib, field, name) (mhd.field = (__typeof__(mhd.field))dlsym((lib), (name)))

const struct prom_mhd *prom_mhd_load(char *err, size_t errlen)
{
	if (loaded)
		return &mhd;
	const char *hook = getenv(PROM_MHD_LIB_ENV);
	const char *name = hook && *hook ? hook : PROM_MHD_LIB;
	void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		const char *e = dlerror();
		snprintf(err, errlen,
			 "cannot load libmicrohttpd, which serves /metrics (%s); install it (Debian: the "
			 "package libmicrohttpd12; Ubuntu 24.04: libmicrohttpd12t64) or use --prom-textfile",
			 e ? e : name);
		return NULL;
	}
	const char *missing = !MHD_LOAD(lib, start_daemon, "MHD_start_daemon") ? "MHD_start_daemon"
		: !MHD_LOAD(lib, stop_daemon, "MHD_stop_daemon") ? "MHD_stop_daemon"
		: !MHD_LOAD(lib, create_response_from_buffer, "MHD_create_response_from_buffer")
			? "MHD_create_response_from_buffer"
		: !MHD_LOAD(lib, add_response_header, "MHD_add_response_header") ? "MHD_add_response_header"
		: !MHD_LOAD(lib, queue_response, "MHD_queue_response") ? "MHD_queue_response"
		: !MHD_LOAD(lib, destroy_response, "MHD_destroy_response") ? "MHD_destroy_response"
		: !MHD_LOAD(lib, get_connection_info, "MHD_get_connection_info") ? "MHD_get_connection_info"
		: NULL;
	if (missing) {
		snprintf(err, errlen, "%s has no %s: is it libmicrohttpd?", name, missing);
		dlclose(lib);
		return NULL;
	}
	/* kept loaded: the server's thread runs its code until prom_close */
	loaded = true;
	return &mhd;
}
