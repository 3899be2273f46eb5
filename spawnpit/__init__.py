"""spawnpit: zombie board-game rules as data.

The import root of every stage (``spawnpit.dsl`` → ``spawnpit.compiler`` → ``spawnpit.engine`` and
``spawnpit.generators``). Importing it stays cheap: nothing here loads lark or the compiler.
"""

__version__ = "0.1.0"
