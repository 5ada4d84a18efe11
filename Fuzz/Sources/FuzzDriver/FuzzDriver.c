// SwiftPM links each executable with main aliased to TARGET_main, which a
// -parse-as-library module does not define. These hand libFuzzer's driver
// the executable's LLVMFuzzerTestOneInput (each executable defines its own).
#include <stddef.h>
#include <stdint.h>
#include "FuzzDriver.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *, size_t));

static int run(int argc, char **argv) { return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput); }

int FuzzReferences_main(int argc, char **argv) { return run(argc, argv); }
int FuzzBatches_main(int argc, char **argv) { return run(argc, argv); }
int FuzzImageHeaders_main(int argc, char **argv) { return run(argc, argv); }
int FuzzArchives_main(int argc, char **argv) { return run(argc, argv); }
