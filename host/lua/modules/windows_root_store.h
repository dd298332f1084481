// Windows keeps the certificate authorities it trusts in the system's ROOT store, not in a file
// (system_certificates.h finds none there). tf.http reaches them through curl
// (CURLSSLOPT_NATIVE_CA); the ssl module's TLS is OpenSSL's own, which needs them copied in.
#pragma once

#include <openssl/ssl.h>

namespace luaform::lua {

// Adds every certificate of the ROOT store to `store`; how many were added (0 when the store
// cannot be opened or holds none).
int add_windows_root_certificates(X509_STORE* store);

}  // namespace luaform::lua
