public enum WorkbenchPlaceholder {}
