"""What each chapter reads off its runs (issue 63, item 2): one module per chapter, named after its stem, holding
the statistics a chapter reports, the claims and figure rows it registers from them, and the sentences it glues
into its prose. The chapter calls one function per idea; the numbers, the rules and the reasons live here and in
the chapter's registry (``book/_registry/<stem>.toml``), not in the chapter's cells.
"""
