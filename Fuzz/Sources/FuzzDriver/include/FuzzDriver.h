// Entry points for the fuzz executables (see FuzzDriver.c).
#ifndef FUZZ_DRIVER_H
#define FUZZ_DRIVER_H
int FuzzReferences_main(int argc, char **argv);
int FuzzBatches_main(int argc, char **argv);
int FuzzImageHeaders_main(int argc, char **argv);
int FuzzArchives_main(int argc, char **argv);
#endif
