#!/bin/sh
# A stand-in for `dotnet` on PATH, for the fault matrix's build and test-host rows (no SDK needed):
# FAKE_DOTNET_MODE=hang makes `build` never return; =crash makes `test` die by SIGABRT after its
# first line, as a test host that crashes takes `dotnet test` down. Each call logs its pid and args.
echo "$$ $*" >> "$FAKE_DOTNET_LOG"
case "$1" in
  --version) echo 9.0.100; exit 0;;
  build|restore|msbuild)
    if [ "$FAKE_DOTNET_MODE" = hang ]; then exec sleep 300; fi
    echo "Build succeeded."; exit 0;;
  test) echo "Starting test execution, please wait..."; kill -ABRT $$;;
  *) exit 0;;
esac
