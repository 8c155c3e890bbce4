#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic: one typed entry point per argument type. */
static inline CURLcode cjoryio_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode cjoryio_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode cjoryio_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode cjoryio_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode cjoryio_curl_setopt_write_function(CURL *handle, curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}
static inline CURLcode cjoryio_curl_setopt_header_function(CURL *handle, curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
}
static inline CURLcode cjoryio_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode cjoryio_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode cjoryio_curl_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}
/* Limits a handle to http and https. CURLOPT_PROTOCOLS_STR replaced the (now deprecated) bitmask in 7.85.0. */
static inline CURLcode cjoryio_curl_allow_only_http(CURL *handle) {
#if LIBCURL_VERSION_NUM >= 0x075500
    return curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
#else
    return curl_easy_setopt(handle, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
}
/* Opens libcurl's sockets close-on-exec (libcurl 7.x opens them without): a host process that starts
   children (a server, a command-line tool) must not hand them the SDK's connections. */
static inline curl_socket_t cjoryio_curl_open_socket(void *clientp, curlsocktype purpose, struct curl_sockaddr *address) {
    (void)clientp;
    (void)purpose;
    curl_socket_t descriptor;
#ifdef SOCK_CLOEXEC
    descriptor = socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
    if (descriptor != CURL_SOCKET_BAD || errno != EINVAL) {
        return descriptor;
    }
#endif
    descriptor = socket(address->family, address->socktype, address->protocol);
    if (descriptor != CURL_SOCKET_BAD) {
        (void)fcntl(descriptor, F_SETFD, FD_CLOEXEC);
    }
    return descriptor;
}
static inline CURLcode cjoryio_curl_open_sockets_close_on_exec(CURL *handle) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, cjoryio_curl_open_socket);
}
