/* prom_mhd: libmicrohttpd, loaded with dlopen when --prom-listen serves.
 *
 * Linked into the binary, libmicrohttpd and what it pulls in (gnutls,
 * p11-kit, nettle, hogweed, gmp, idn2, unistring, tasn1, ffi) were mapped
 * and relocated in every run: a --batch run resident at 6 MiB instead of
 * under 4, for a server only --prom-listen uses.  The headers still give
 * the types and constants at build time; the functions are looked up in
 * libmicrohttpd.so.12 (the soname of every 0.9.x and 1.0 release) the first
 * time a server starts, and the library stays loaded.  The Debian package
 * declares it (debian/rules: mhd:Depends).
 *
 * The environment variable DVFSTOP_MHD_LIB names another file to load
 * instead; it is a testing hook (tests/integration/prom_nolib.sh points it
 * at a file that is no library), not a user setting. */
#ifndef DVF_PROM_MHD_H
#define DVF_PROM_MHD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>

#define PROM_MHD_LIB "libmicrohttpd.so.12"
#define PROM_MHD_LIB_ENV "DVFSTOP_MHD_LIB"

/* The functions prom.c calls, typed as this build's header declares them
 * (the handlers' return type changed from int to enum MHD_Result in
 * 0.9.71). */
struct prom_mhd {
	__typeof__(MHD_start_daemon) *start_daemon;
	__typeof__(MHD_stop_daemon) *stop_daemon;
	__typeof__(MHD_create_response_from_buffer) *create_response_from_buffer;
	__typeof__(MHD_add_response_header) *add_response_header;
	__typeof__(MHD_queue_response) *queue_response;
	__typeof__(MHD_destroy_response) *destroy_response;
	__typeof__(MHD_get_connection_info) *get_connection_info;
};

/* The library's functions, loaded at the first call; NULL with err saying
 * which file could not be loaded and why (a later call tries again). */
const struct prom_mhd *prom_mhd_load(char *err, size_t errlen);

#endif
