from mjtools.cli import main

main()
