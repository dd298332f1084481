// <windows.h>, then <wincrypt.h>, before OpenSSL: wincrypt's macros (X509_NAME and kin) clash with
// OpenSSL's types, and OpenSSL's headers undefine them only when they are included after it.
#include <windows.h>

#include <wincrypt.h>

#include "host/lua/modules/windows_root_store.h"

#include <openssl/x509.h>

namespace luaform::lua {

int add_windows_root_certificates(X509_STORE* store) {
  HCERTSTORE root = CertOpenSystemStoreW(0, L"ROOT");
  if (root == nullptr) return 0;
  int added = 0;
  for (PCCERT_CONTEXT entry = CertEnumCertificatesInStore(root, nullptr); entry != nullptr;
       entry = CertEnumCertificatesInStore(root, entry)) {
    const unsigned char* der = entry->pbCertEncoded;
    X509* certificate = d2i_X509(nullptr, &der, static_cast<long>(entry->cbCertEncoded));
    if (certificate == nullptr) continue;  // a form OpenSSL does not read: not one it trusts
    if (X509_STORE_add_cert(store, certificate) == 1) ++added;
    X509_free(certificate);
  }
  CertCloseStore(root, 0);
  return added;
}

}  // namespace luaform::lua
