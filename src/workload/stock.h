/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * stock.h - dbench 4.0's own loadfile, client.txt: where dbench-ng looks
 * for it when no -c is given (dbench 4.0's default workload, read where
 * dbench installed it, never copied), and which kind of workload a
 * loadfile is: dbench's client.txt, a built-in one, or a file of the
 * user's (docs/loadfile.md, "The default loadfile").
 */
#ifndef DBNG_STOCK_H
#define DBNG_STOCK_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Where dbench 4.0 reads its default, DATADIR "/client.txt", as it is
 * installed, in the order the shell would find that dbench (/usr/local/bin
 * before /usr/bin): a plain "./configure && make install" (DATADIR is
 * PREFIX/share), the same with Debian's layout, Debian's package.
 */
#define STOCK_PATHS                                                       \
	"/usr/local/share/client.txt:/usr/local/share/dbench/client.txt:" \
	"/usr/share/dbench/client.txt"

/* For the tests only: a ':'-separated list searched instead of
 * STOCK_PATHS ("" searches nothing) */
#define STOCK_TEST_ENV "DBENCH_NG_TEST_CLIENT_TXT_PATH"

/* the SHA-256 of dbench 4.0's client.txt (26214401 bytes; the same in
 * 4.0, in dbench's git and in Debian's package) */
#define STOCK_SHA256 \
	"ec2792b86d74ff0c6d091a599ce3ec311fcce86c97f7be86a80fca80c24ce45c"

enum lf_kind {
	LF_KIND_FILE,	    /* a loadfile of the user's */
	LF_KIND_CLIENT_TXT, /* dbench 4.0's client.txt */
	LF_KIND_BUILTIN,    /* compiled in: "builtin:..." */
};

/*
 * stock_kind - what the loadfile @name is, whose text has the SHA-256
 * @sha256 (hex), or NULL when that is not known (a dbench log's Running
 * line names only the file): a built-in one by its name; then dbench's
 * client.txt by its content, or without it by its file name.
 */
enum lf_kind stock_kind(const char *name, const char *sha256);

/* stock_kind_name - "file", "client.txt", "builtin": the JSON's words */
const char *stock_kind_name(enum lf_kind k);

/*
 * stock_default - the loadfile of a run without -c: the first path of
 * the search list (STOCK_PATHS) that exists, whether or not it can be
 * read (reading it says what is wrong, and a run refuses it: its files
 * are dbench 4.0's workload, not to be swapped silently for another);
 * else the built-in workload, with a note for stderr in @note ("" when
 * a file was found).  *@found says which.
 */
const char *stock_default(bool *found, char *note, size_t len);

#endif
