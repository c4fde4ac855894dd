"""One A Game of Thrones challenge: the board, the steps, claims, keywords, winning, its report."""
