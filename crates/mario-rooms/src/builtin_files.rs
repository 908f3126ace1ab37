embed![]
