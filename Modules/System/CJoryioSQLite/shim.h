#include <sqlite3.h>

/* SQLITE_TRANSIENT casts -1 to a function pointer, which Swift cannot import. */
static inline sqlite3_destructor_type cjoryio_sqlite_transient(void) { return SQLITE_TRANSIENT; }

/* sqlite3_db_config is variadic: one typed wrapper per use. */
static inline int cjoryio_sqlite_db_config_defensive(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, on, (int *)0);
}
