"""The Telegram adapter (python-telegram-bot 22): translate only, no rule is decided here.

    app.py           config_from_env(), TelegramBot (Application + port + coordinator), serve()
    port.py          TelegramChatPort: views out as HTML messages (the table a photo with a
                     caption), edited in place; 403 -> DeliveryFailed
    routes.py        which handler answers which update (every feature, registered once)
    context.py       what the features share: coordinator, port, store, user/chat helpers, replies
    handlers.py      commands -> coordinator commands, replies back
    buttons.py       callback queries (lobby, table, hand keyboards), every one answered
    inline.py        inline mode: your hand as personal results; a chosen result plays it
    keyboards.py     lobby / table / hand keyboards and their sub-menus (colour, swap, multi-play)
    callbacks.py     callback data: ids only, <= 64 bytes, parsed and validated
    bot_commands.py  the command menu (setMyCommands, English and Chinese) and /help
    texts.py         translation and HTML helpers
    photos.py        the table as a photo of the top card (file ids stored), hand pictures
    settings_menu.py /settings: the chat's settings with a keyboard to change them
    card_theme.py    /cards: a player's card colours, classic or high contrast

Decisions: buttons carry ``<scope>:<game>[:<owner>]:<verb>:...`` so they survive restarts and
are checked against the presser; sub-menus live in the keyboard itself (no memory state);
inline choices are played from ``chosen_inline_result`` (BotFather /setinlinefeedback) and the
message they post in the group names no card; flood control is AIORateLimiter's, inside each
awaited call, so the coordinator's per-game order of messages is kept.
"""
