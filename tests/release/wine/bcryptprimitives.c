/* ProcessPrng, the one function of Windows 10's bcryptprimitives.dll that Go programs since
 * Go 1.22 (OpenTofu among them) load at start. Wine 8, Debian 12's, has no such DLL, so the
 * release tests put this one into the wine prefix's system32: the same bytes from the
 * system's random generator that the real one gives, through RtlGenRandom. */
#include <windows.h>

#include <ntsecapi.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
  while (length > 0) {
    ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
    if (!RtlGenRandom(data, chunk)) return FALSE;
    data += chunk;
    length -= chunk;
  }
  return TRUE;
}
